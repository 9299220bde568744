// Package service holds the endpoints controller, which keeps each
// service's Endpoints object equal to the "podIP:port" addresses of the pods
// its selector picks.
//
// The default build is the controller of Kubernetes v0.4 (October 2014),
// which the controller-manager ran every 10 s under util.Forever: a LIST of
// all services, then a LIST of pods, a GET and maybe a write per service.
// Built with -tags modern it is an informer-driven controller with a
// workqueue of service keys instead (history: endpoints-informer).
package service

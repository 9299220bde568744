// Package master wires the registries into the storage map the apiserver
// serves, one entry per resource.
//
// Follows kubernetes/kubernetes pkg/master as of v0.4 (October 2014),
// reduced to its storage map: the HTTP server, pod cache and minion health
// checks are elsewhere or gone.
package master

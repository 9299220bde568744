// Command controller-manager-upstream runs today's real replication
// manager, k8s.io/kubernetes pkg/controller/replication at v1.37.2 (the
// release of our client-go), unmodified, against our v1beta1 apiserver. It
// is a laboratory variant that checks our annotated port
// (controller-manager built with -tags modern), not a subject of its own.
//
// Everything around the replication manager is our modern
// controller-manager's, so that a difference between the two binaries is
// a difference between the two replication managers: the same shared
// informers (pkg/modern/informers), the same client, rate limit and
// connection pool, the same endpoints controller and garbage collector
// stand-in (pkg/service, pkg/controller, modern build), and leader election
// on the same lock. Upstream's manager gets those informers, as
// kube-controller-manager hands it its factory's, and a clientset: the
// adapter (package adapter), whose calls cross pkg/modern/conversion to our
// 2014 client.
//
// The defaults are kube-controller-manager's: 5 concurrent syncs, a burst
// of 500, a client limit of 20 requests a second with a burst of 30, 20
// garbage collector workers, and leader election.
//
// Ours: this binary is a Go module of its own (go.mod beside this file,
// its replace pointing at this checkout), not a build tag of the main
// module. As a dependency k8s.io/kubernetes needs 33 replace lines (its
// go.mod points its staging modules at a ./staging folder that a module
// download does not have) and minutes of compiling; here none of that
// reaches the main go.mod, go build ./..., make run or make test's
// packages. make upstream builds it with -tags modern, for the modern
// endpoints controller and garbage collector stand-in it shares with
// controller-manager-modern.
package main

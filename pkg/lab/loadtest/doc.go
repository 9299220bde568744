// Package loadtest runs the whole apiserver, on an embedded etcd, under
// sustained load and checks what its watchers see: every write exactly
// once, in order, and a clean recovery for a watcher that falls out of
// etcd's window. It holds tests only, and takes a minute (15 s with
// -short).
//
// Ours: not part of 2014.
package loadtest

// Package loadtest runs the whole apiserver, on an embedded etcd, under
// sustained load and checks what its watchers see: every write exactly
// once, in order, and a clean recovery for a watcher that falls out of
// etcd's window. It holds tests only; its writers write for 20 s
// (-args -load_for=10m for a soak).
//
// Ours: not part of 2014.
package loadtest

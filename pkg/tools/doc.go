// Package tools holds EtcdHelper, the thin layer between the registries and
// etcd's v2 API: it reads and writes API objects as JSON under a key, lists
// a directory into a slice, performs compare-and-swap updates, and turns
// etcd's long-poll watch into a watch.Interface of ADDED, MODIFIED, DELETED
// and ERROR events. FakeEtcdClient stands in for etcd in unit tests.
//
// Follows kubernetes/kubernetes pkg/tools as of v0.4 (October 2014), which
// used the go-etcd client (github.com/coreos/go-etcd, v2.0.0 here).
package tools

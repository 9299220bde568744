// Package etcdtest starts etcd for tests: an embedded member in a
// temporary directory for one test (New) or a test package's TestMain,
// and external etcd processes (the Debian etcd-server binary, one member
// or a three-member cluster on loopback) for tests of what happens when a
// member goes away.
//
// Ours: 2014's integration test expected an etcd already listening on
// localhost:4001 and wiped it. Nothing here touches an etcd it did not
// start, and every process started is killed when the test ends.
package etcdtest

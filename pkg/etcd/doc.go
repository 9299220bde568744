// Package etcd runs an etcd member inside a process: the apiserver's, the
// v2 API on loopback and its data on disk, so that one binary brings its
// own storage; and the laboratory's learner (pkg/lab/etcdpods), the one
// user of Config.Join, Config.Handlers and Server.Watch, which stay here
// because the learner is a member of this package's making.
//
// Ours: in 2014 etcd was a separate process that the apiserver reached
// through -etcd_servers (hack/local-up-cluster.sh started it on
// 127.0.0.1:4001). Embedding go.etcd.io/etcd v3.5 with the v2 API switched
// on keeps that wire protocol, so the 2014 go-etcd client and key layout
// work unchanged, while sparing every demo and test an extra process. An
// external etcd can still be used instead (see package etcdtest and the
// apiserver's -etcd_servers flag).
//
// The one piece of etcd's v2 API served by code of ours is the recursive
// GET of a directory, which a LIST sends: list.go writes it child by child,
// the bytes etcd's own handler would write (Ours: see listHandler). And the
// process that embeds the member may reach it without sockets, through
// Server.Dial (Ours: see inprocess.go and pipe.go).
//
// The learner lists pods through list.go too, and needs three pieces the
// apiserver's own member never uses: Config.Join, which starts a member in
// a running cluster; Config.Handlers, on which the learner serves its
// tail; and Server.Watch, through which the tail reads the store in
// memory.
package etcd

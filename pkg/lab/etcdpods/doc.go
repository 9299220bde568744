// Package etcdpods reads the pods the apiserver stores straight from etcd,
// for the laboratory's own pod watches (the hollow nodes, the benchmark's
// pod count): a recursive GET of /registry/pods, then every change after
// it.
//
// Through the apiserver each watch event costs, besides etcd's answer, a
// decode, an encode and a hop down a stream, one event after the other in
// a process the designs keep busy, and a watcher whose chain falls 1000
// events behind lists every pod again, a LIST the apiserver pays for. At
// 100 000 pods the laboratory's two watches fell out of that window many
// times in one idle setup and measured themselves rather than the
// designs.
//
// The laboratory's stacks read a learner (join.go): a member of the
// cluster that votes on nothing, run in a process of its own
// (ServeLearner, learner.go; the hollow-node binary's -learner_of mode),
// so that its CPU is counted apart, which follows itself through a tail
// in memory (tail.go); the benchmark and the hollow nodes list from it
// over HTTP and watch that tail there (NewTailReader, tail_http.go).
// NewLearner runs one in the caller's process instead, for tests. The tail drops no event, so neither watch falls out of
// etcd's window unless the tail itself does (it is flagged as before).
// The learner is a member of pkg/etcd's making, which serves the tail on
// its client listener and lets the tail read its store in memory; only
// the learner serves the tail, not the member the apiserver embeds. The members the apiserver stores
// in serve the laboratory no read: they send the learner what they commit,
// as to any follower, and that is all its reading costs them; an embedded
// member's share counts in the apiserver's CPU.
//
// Without a learner (one that cannot join: etcd takes one learner at a
// time) a Source reads the members themselves, by etcd's stream watch and
// long polls at once, merged in index order (etcdpods.go). That kept up
// below 1000 pods, and in most scale-ups of more fell out of the window
// while the burst lasted (see pollWatch.follow): the stream is dropped,
// and the polls wait their turn, in a process busy with the burst.
//
// Ours: not part of 2014. v0.4's kubelets did read etcd directly, but
// their manifests (/registry/hosts/<minion>/kubelet, which the apiserver
// wrote at each binding), not the pods; its scheduler, which the hollow
// nodes also stand in for, watched pods through the apiserver, the
// unscheduled and the scheduled apart (plugin/pkg/scheduler/factory). So
// the apiserver's figures here leave out those two watches.
package etcdpods

// Package etcdpods reads the pods the apiserver stores straight from etcd,
// for the laboratory's own pod watches (the hollow nodes, the benchmark's
// pod count): a recursive GET of /registry/pods, then etcd's stream watch
// and long polls at once, merged in index order (etcdpods.go).
//
// Through the apiserver each watch event costs, besides etcd's answer, a
// decode, an encode and a hop down a stream, one event after the other in
// a process the designs keep busy, and a watcher whose chain falls 1000
// events behind lists every pod again, a LIST the apiserver pays for. At
// 100 000 pods the laboratory's two watches fell out of that window 11
// times in one idle setup and measured themselves rather than the
// designs. Straight to etcd the stream costs etcd one encoding an event,
// a long poll one small request (some 16 000 a second on an idle core),
// and the apiserver's own code does no work for the laboratory's reading;
// an embedded etcd's work for it is done in the apiserver's process, and
// counts in its CPU.
//
// Ours: not part of 2014. v0.4's kubelets did read etcd directly, but
// their manifests (/registry/hosts/<minion>/kubelet, which the apiserver
// wrote at each binding), not the pods; its scheduler, which the hollow
// nodes also stand in for, watched pods through the apiserver, the
// unscheduled and the scheduled apart (plugin/pkg/scheduler/factory). So
// the apiserver's figures here leave out those two watches.
package etcdpods

// Command kubecfg is the 2014 command-line client of the apiserver: REST
// verbs on <resource>[/<id>] (get, list, create, update, delete, print),
// replication controller verbs (resize, stop, rm, run, rollingupdate), and
// the 2014 tables. Flags are single-dash, as in v0.4:
//
//	kubecfg -h http://127.0.0.1:8080 list pods
//	kubecfg -c examples/nginx.json create replicationControllers
//	kubecfg resize nginxController 5
//
// Follows kubernetes/kubernetes cmd/kubecfg as of v0.4 (October 2014); the
// work is done by pkg/kubecfg.
package main

// Package kubecfg holds what the 2014 command-line tool did: the REST verbs
// on <resource>[/<id>], the replication controller verbs (resize, stop, rm,
// run, rollingupdate), the parser that checks a config file against the
// resource it is sent to, and the printers (tables, JSON, YAML, templates).
// cmd/kubecfg only parses flags and wires these together.
//
// Follows kubernetes/kubernetes pkg/kubecfg and cmd/kubecfg as of v0.4
// (October 2014).
package kubecfg

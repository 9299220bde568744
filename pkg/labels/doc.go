// Package labels implements the 2014 label model: a Set of key=value pairs on
// every object, and equality-based Selectors ("name=nginx,env!=prod") that
// replication controllers and services use to find their pods.
//
// Follows kubernetes/kubernetes pkg/labels as of v0.4 (October 2014). Set-based
// selectors ("env in (a,b)") came in 2015 and are not part of this port.
package labels

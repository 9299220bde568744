// Package util holds the handful of helpers the 2014 control plane shared:
// Forever and HandleCrash for long-running loops, logging to stderr with
// InitLogs, the Time and IntOrString wire types, and the name checks used
// by validation.
//
// Follows kubernetes/kubernetes pkg/util as of v0.4 (October 2014), which
// began with three functions and grew into a grab-bag by 2015; this one is
// kept to what the port needs.
package util

// Package minion defines the storage interface of minions, the hosts pods
// run on, and their REST storage. Minions are created and deleted, never
// updated.
//
// Follows kubernetes/kubernetes pkg/registry/minion as of v0.4 (October
// 2014), with its caching registry and without its cloud and
// health-checking ones.
package minion

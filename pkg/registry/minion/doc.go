// Package minion defines the storage interface of minions, the hosts pods
// run on, and their REST storage. Minions are created and deleted, never
// updated.
//
// Follows kubernetes/kubernetes pkg/registry/minion as of v0.4 (October
// 2014), without its cloud, caching and health-checking registries.
package minion

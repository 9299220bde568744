//go:build modern

package main

import (
	"flag"
	"testing"
)

// The modern binary caps a sync at upstream's 500 unless told otherwise:
// the figure k8s.io/kubernetes v1.37.2 declares as BurstReplicas in
// pkg/controller/replicaset/replica_set.go.
func TestTheBurstReplicasFlagDefaultsToUpstreams500(t *testing.T) {
	f := flag.Lookup("burst_replicas")
	if f == nil {
		t.Fatal("the modern binary has no -burst_replicas flag")
	}
	if f.DefValue != "500" {
		t.Errorf("-burst_replicas defaults to %s, want upstream's 500", f.DefValue)
	}
	if _, w, err := applyWithout(nil, wiring{burstReplicas: *burstReplicas}); err != nil || w.burstReplicas != 500 {
		t.Errorf("with nothing switched off the manager is wired with a burst of %d (%v), want 500", w.burstReplicas, err)
	}
}

//go:build modern

package main

import (
	"math"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/controller"
	"github.com/kube-rewind/kube-rewind/pkg/history"
)

// TestEverySwitchableChangeHasASwitch checks that every change the
// catalogue says can be switched off changes something here, and that
// the wiring ones restore what came before them: no rate limit, no burst
// cap, no election, no garbage collector.
func TestEverySwitchableChangeHasASwitch(t *testing.T) {
	today := wiring{qps: 20, burstReplicas: controller.BurstReplicas, leaderElect: true, garbageCollector: true}
	for _, name := range history.SwitchNames() {
		sw, w, err := applyWithout(map[string]bool{name: true}, today)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if sw == (controller.Without{}) && w == today {
			t.Errorf("-without=%s changes nothing", name)
		}
	}
	_, w, _ := applyWithout(map[string]bool{"qps": true, "burst-cap": true, "leader-election": true, "garbage-collector": true}, today)
	if w.qps != 0 || w.burstReplicas != math.MaxInt32 || w.leaderElect || w.garbageCollector {
		t.Errorf("wiring without qps, burst-cap, leader-election and garbage-collector = %+v, want no limit, no cap, no election, no collector", w)
	}
	if _, _, err := applyWithout(map[string]bool{"endpoints-informer": true}, today); err == nil {
		t.Error("a change without a switch was accepted")
	}
}

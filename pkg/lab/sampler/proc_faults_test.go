package sampler

import (
	"os"
	"testing"
)

func TestMinorFaultsGrowWhenThisProcessTouchesNewMemory(t *testing.T) {
	before, ok := MinorFaults(os.Getpid())
	if !ok {
		t.Skip("no /proc here")
	}
	b := make([]byte, 64<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	after, ok := MinorFaults(os.Getpid())
	if !ok || after <= before {
		t.Errorf("minor faults %d, then %d after touching 64 MB, want more", before, after)
	}
}

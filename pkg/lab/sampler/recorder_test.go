package sampler

import (
	"testing"
	"time"
)

func TestASampleTakenBetweenTwoOthersIsKeptInTimeOrder(t *testing.T) {
	start := time.Unix(1000, 0)
	at := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	r := NewRecorder(start)
	r.Add("lists", at(1), 10)
	r.Add("lists", at(2), 22)
	r.Add("lists", at(1.5), 11)
	r.Add("lists", at(3), 33)

	var got []float64
	for _, p := range r.Series("lists") {
		got = append(got, p.T)
	}
	want := []float64{1, 1.5, 2, 3}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Fatalf("times %v, want %v", got, want)
		}
	}
	if d := r.Between("lists", 1.6, 3); d != 33-11 {
		t.Errorf("Between(1.6, 3) = %v, want the change since the sample at 1.5: %v", d, 33-11)
	}
}

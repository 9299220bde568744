package today_test

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
)

// TestReadingAManagersMetricsOftenOpensItNoSocketPerRead: the sampler reads
// each manager's metrics every 25 ms through the stack's client; a hundred
// reads leave the manager with a few sockets more at most, not one per
// read, which its socket, goroutine and memory figures would count as its
// own. Not parallel: it runs before the tests that kill and restart the
// shared stack's managers and scheduler.
func TestReadingAManagersMetricsOftenOpensItNoSocketPerRead(t *testing.T) {
	st, _ := shared(t)
	for _, c := range st.Components() {
		if !c.Manager || c.Pid() <= 0 {
			continue
		}
		before := sampler.OpenSockets(c.Pid())
		for i := 0; i < 100; i++ {
			if _, err := sampler.ScrapeWith(st.HTTPClient(), c.URL+c.Metrics); err != nil {
				t.Fatal(err)
			}
		}
		if after := sampler.OpenSockets(c.Pid()); after > before+4 {
			t.Errorf("%s had %d sockets open before a hundred reads of its metrics and %d after", c.Name, before, after)
		}
		return
	}
	t.Fatal("today's stack has no manager")
}

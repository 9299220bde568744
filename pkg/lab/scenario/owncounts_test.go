package scenario

import (
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
)

func metrics(t *testing.T, text string) sampler.Metrics {
	t.Helper()
	m, err := sampler.ParseMetrics(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestOwnCountsAreTheWritesWatchEventsAndEntriesTheStackCountedItself
// reads kube-apiserver's and etcd's own counters as they expose them,
// and takes a run's figures, in all and per pod, from two readings.
func TestOwnCountsAreTheWritesWatchEventsAndEntriesTheStackCountedItself(t *testing.T) {
	api := metrics(t, `# TYPE apiserver_request_total counter
apiserver_request_total{code="201",resource="pods",verb="POST"} 100
apiserver_request_total{code="200",resource="pods",verb="PATCH"} 150
apiserver_request_total{code="200",resource="pods",verb="PUT"} 30
apiserver_request_total{code="200",resource="pods",verb="DELETE"} 20
apiserver_request_total{code="200",resource="pods",verb="LIST"} 7
apiserver_request_total{code="200",resource="pods",verb="WATCH"} 3
# TYPE apiserver_watch_events_total counter
apiserver_watch_events_total{group="",resource="pods",version="v1"} 900
apiserver_watch_events_total{group="",resource="nodes",version="v1"} 100
`)
	etcd := metrics(t, "# TYPE etcd_server_proposals_committed_total gauge\netcd_server_proposals_committed_total 480\n")
	got := ownCounts(api, etcd)
	if got.APIWrites != 300 || got.WatchEvents != 1000 || got.EtcdEntries != 480 {
		t.Errorf("counts %+v, want 300 writes (no read), 1 000 events of every resource and 480 entries", got)
	}
	rs := ResultMap(countsResults(OwnCounts{APIWrites: 100, WatchEvents: 200, EtcdEntries: 80}, got, 100, []Result{{Name: "apiserver_cpu", Value: 2.5}}))
	want := map[string]float64{FigureAPIWrites: 200, FigureWatchEvents: 800, FigureEtcdEntries: 400,
		FigureAPIWrites + "_per_pod": 2, FigureWatchEvents + "_per_pod": 8, FigureEtcdEntries + "_per_pod": 4, "apiserver_cpu_per_pod": 25}
	for name, v := range want {
		if rs[name] != v {
			t.Errorf("%s = %v, want %v", name, rs[name], v)
		}
	}
}

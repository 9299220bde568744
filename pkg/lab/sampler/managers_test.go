package sampler

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// scrapedCluster is a cluster of an apiserver's /metrics alone, whose
// request counts may or may not have begun with it.
type scrapedCluster struct {
	Cluster
	url  string
	zero bool
}

func (c scrapedCluster) RequestsURL() string       { return c.url }
func (c scrapedCluster) HTTPClient() *http.Client  { return http.DefaultClient }
func (c scrapedCluster) APIServer() (int, []int)   { return 0, nil }
func (c scrapedCluster) HollowNode() (int, string) { return 0, "" }
func (c scrapedCluster) Others() map[string]int    { return nil }
func (c scrapedCluster) CountsFromZero() bool      { return c.zero }

// TestAManagersStartUpListsCountWhereTheClusterCountsFromZero: a modern
// manager's informers list before the sampler's first scrape (4 LISTs),
// then one sync lists pods. On a cluster the laboratory started, the
// figure holds all five, wherever the first scrape fell; on one that ran
// before, only the one after the first scrape.
func TestAManagersStartUpListsCountWhereTheClusterCountsFromZero(t *testing.T) {
	var lists atomic.Int64
	lists.Store(4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "# TYPE apiserver_request_total counter")
		fmt.Fprintf(w, "apiserver_request_total{code=\"200\",component=\"controller-manager\",resource=\"pods\",verb=\"LIST\"} %d\n", lists.Load())
		fmt.Fprintf(w, "apiserver_request_total{code=\"200\",component=\"hollow-node\",resource=\"pods\",verb=\"LIST\"} 3\n")
	}))
	defer srv.Close()
	for _, c := range []struct {
		zero bool
		want float64
	}{{true, 5}, {false, 1}} {
		lists.Store(4)
		start := time.Now()
		s := &Sampler{Rec: NewRecorder(start), Pods: NewPodCounter(nil, nil), cluster: scrapedCluster{url: srv.URL, zero: c.zero}}
		s.sampleAPIServer(start)
		lists.Add(1)
		s.sampleAPIServer(start.Add(time.Second))
		if got := s.Rec.Last(ManagerRequests + "LIST"); got != c.want {
			t.Errorf("counting from zero %v: the manager's LISTs are %v; want %v", c.zero, got, c.want)
		}
		// Every other client's counts start at the first scrape either way.
		if got := s.Rec.Last(APIRequests + "LIST"); got != 1 {
			t.Errorf("counting from zero %v: the apiserver's LISTs are %v; want 1, the one after the first scrape", c.zero, got)
		}
	}
}

// managersCluster is a cluster of managers alone.
type managersCluster struct {
	Cluster
	eps []Endpoint
}

func (c managersCluster) Managers() []Endpoint     { return c.eps }
func (c managersCluster) HTTPClient() *http.Client { return http.DefaultClient }

// TestAManagerIsReadNoMoreOftenThanItsEndpointSays: of two managers, the
// one whose Endpoint.Every has not passed is counted with its last read
// and not read again, unless every manager is read afresh (SampleNow);
// the other is read every time.
func TestAManagerIsReadNoMoreOftenThanItsEndpointSays(t *testing.T) {
	var often, rarely atomic.Int64
	serve := func(reads *atomic.Int64, goroutines int) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			reads.Add(1)
			fmt.Fprintf(w, "# TYPE go_goroutines gauge\ngo_goroutines %d\n", goroutines)
		}))
	}
	a, b := serve(&often, 10), serve(&rarely, 300)
	defer a.Close()
	defer b.Close()
	start := time.Now()
	s := &Sampler{Rec: NewRecorder(start), cluster: managersCluster{eps: []Endpoint{{URL: a.URL}, {URL: b.URL, Every: time.Hour}}}}
	for i := 0; i < 5; i++ {
		s.readManagers(start.Add(time.Duration(i)*time.Second), false)
		if got := s.Rec.Last(ManagerGoroutines); got != 310 {
			t.Fatalf("read %d: %v goroutines; want 310, the rarely read manager's counted with its last read", i, got)
		}
	}
	if often.Load() != 5 || rarely.Load() != 1 {
		t.Errorf("five reads read one manager %d times and the other, read at most hourly, %d; want 5 and 1", often.Load(), rarely.Load())
	}
	s.readManagers(start.Add(6*time.Second), true)
	if rarely.Load() != 2 {
		t.Errorf("a fresh read of every manager read the hourly one %d times in all; want 2", rarely.Load())
	}
}

package sampler

import (
	"os"
	"strings"
	"testing"
)

// A scrape of the apiserver while a modern manager idles and a hollow
// node and the benchmark's own pod watch do their work.
const idleScrape = `# TYPE apiserver_request_total counter
apiserver_request_total{code="200",component="controller-manager",resource="pods",verb="LIST"} 1
apiserver_request_total{code="200",component="controller-manager",resource="pods",verb="WATCH"} 1
apiserver_request_total{code="200",component="controller-manager",resource="replicationControllers",verb="PUT"} 4
apiserver_request_total{code="409",component="controller-manager",resource="replicationControllers",verb="PUT"} 1
apiserver_request_total{code="200",component="controller-manager",resource="endpoints",verb="PUT"} 2
apiserver_request_total{code="200",component="leader-election",resource="endpoints",verb="GET"} 1
apiserver_request_total{code="201",component="leader-election",resource="endpoints",verb="POST"} 1
apiserver_request_total{code="200",component="leader-election",resource="endpoints",verb="PUT"} 30
apiserver_request_total{code="200",component="hollow-node",resource="pods",verb="PUT"} 500
apiserver_request_total{code="200",component="scenario",resource="pods",verb="LIST"} 1
`

func TestTheManagersRequestsIncludeItsLeaseRenewalsAndNoOtherClients(t *testing.T) {
	m, err := ParseMetrics(strings.NewReader(idleScrape))
	if err != nil {
		t.Fatal(err)
	}
	got := CountManagerRequests(m)
	wantVerb := map[string]float64{"LIST": 1, "WATCH": 1, "GET": 1, "POST": 1, "PUT": 4 + 1 + 2 + 30, "DELETE": 0}
	for verb, want := range wantVerb {
		if got.ByVerb[verb] != want {
			t.Errorf("%s: %v, want %v (the hollow node's and the benchmark's requests are not the manager's; its lease renewals are)", verb, got.ByVerb[verb], want)
		}
	}
	wantPurpose := map[string]float64{PurposeSync: 1 + 1 + 2, PurposeStatus: 5, PurposeElection: 32, PurposeEvents: 0}
	for p, want := range wantPurpose {
		if got.ByPurpose[p] != want {
			t.Errorf("purpose %s: %v, want %v", p, got.ByPurpose[p], want)
		}
	}
	total := 0.0
	for _, v := range got.ByPurpose {
		total += v
	}
	verbs := 0.0
	for _, v := range got.ByVerb {
		verbs += v
	}
	if total != verbs {
		t.Errorf("the purposes add up to %v requests and the verbs to %v: each request must have one purpose", total, verbs)
	}
}

func TestAScrapeWithNoManagerSaysZeroForEveryVerbAndPurpose(t *testing.T) {
	m, err := ParseMetrics(strings.NewReader(`apiserver_request_total{code="200",component="kubecfg",resource="pods",verb="LIST"} 3` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := CountManagerRequests(m)
	for _, verb := range Verbs {
		if v, ok := got.ByVerb[verb]; !ok || v != 0 {
			t.Errorf("%s = %v (present %v), want a zero that is there", verb, v, ok)
		}
	}
	for _, p := range Purposes {
		if v, ok := got.ByPurpose[p]; !ok || v != 0 {
			t.Errorf("purpose %s = %v (present %v), want a zero that is there", p, v, ok)
		}
	}
}

func TestProcessUsageReadsThisProcess(t *testing.T) {
	cpu, rss, ok := ProcessUsage(os.Getpid())
	if !ok {
		t.Skip("no /proc here")
	}
	if cpu < 0 || rss <= 0 {
		t.Errorf("ProcessUsage of this test = %v CPU s, %v bytes, want a resident size above 0", cpu, rss)
	}
	if c, ok := ProcessCPU(os.Getpid()); !ok || c <= 0 {
		t.Errorf("ProcessCPU of this test = %v, %v; a running test has used some CPU", c, ok)
	}
	if s, ok := SelfCPUSeconds(); !ok || s <= 0 {
		t.Errorf("SelfCPUSeconds = %v, %v; a running test has used some CPU", s, ok)
	}
}

func TestTheManagersBytesAreItsRequestAndResponseBodiesLeaseRenewalsIncluded(t *testing.T) {
	m, err := ParseMetrics(strings.NewReader(`# TYPE apiserver_request_body_bytes_total counter
apiserver_request_body_bytes_total{component="controller-manager",resource="pods",verb="POST"} 1000
apiserver_request_body_bytes_total{component="leader-election",resource="endpoints",verb="PUT"} 300
apiserver_request_body_bytes_total{component="hollow-node",resource="pods",verb="PUT"} 50000
# TYPE apiserver_response_body_bytes_total counter
apiserver_response_body_bytes_total{component="controller-manager",resource="pods",verb="LIST"} 20000
apiserver_response_body_bytes_total{component="controller-manager",resource="pods",verb="WATCH"} 7
apiserver_response_body_bytes_total{component="leader-election",resource="endpoints",verb="PUT"} 400
apiserver_response_body_bytes_total{component="scenario",resource="pods",verb="LIST"} 90000
`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ManagerBodyBytes(m), float64(1000+300+20000+7+400); got != want {
		t.Errorf("manager bytes %v, want %v: both directions, both of its clients, no one else's", got, want)
	}
}

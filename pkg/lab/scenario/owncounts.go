package scenario

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
)

// OwnCounts are counters the apiserver and its etcd member keep of
// themselves, read from their own /metrics: what a run cost each stack,
// counted by the stack and not by anything the laboratory puts in its
// way. They are read twice a run (RunCounts), so they cost it two
// scrapes.
type OwnCounts struct {
	// APIWrites are the apiserver's POST, PUT, PATCH and DELETE requests,
	// every client's (apiserver_request_total).
	APIWrites float64
	// WatchEvents are the events the apiserver sent on its watches, of
	// every resource (apiserver_watch_events_total).
	WatchEvents float64
	// EtcdEntries are the proposals the etcd member the apiserver stores
	// in has committed (etcd_server_proposals_committed_total): every
	// write it took, each one raft entry.
	EtcdEntries float64
}

// The figures of OwnCounts in a run's results.
const (
	FigureAPIWrites   = "api_writes"
	FigureWatchEvents = "watch_events_sent"
	FigureEtcdEntries = "etcd_entries"
)

// writeVerbs are the verbs that write, as both apiservers label them.
var writeVerbs = []string{"POST", "PUT", "PATCH", "DELETE", "DELETECOLLECTION", "APPLY"}

// ownCounts reads the counters from the apiserver's and etcd's metrics.
func ownCounts(api, etcd sampler.Metrics) OwnCounts {
	var c OwnCounts
	byVerb := api.By("apiserver_request_total", "verb", nil)
	for _, v := range writeVerbs {
		c.APIWrites += byVerb[v]
	}
	c.WatchEvents = api.Sum("apiserver_watch_events_total", nil)
	c.EtcdEntries = etcd.Sum("etcd_server_proposals_committed_total", nil)
	return c
}

// OwnCounts reads the counters now, where the cluster serves them: our
// apiserver's /metrics and its embedded member's, kube-apiserver's (as
// the laboratory's admin) and its etcd's. v0.4's own apiserver has no
// metrics, and an external cluster's etcd is out of reach: ok is false
// there.
func (e *Env) OwnCounts(ctx context.Context) (c OwnCounts, ok bool, err error) {
	var api, etcd sampler.Metrics
	switch cl := e.Cluster.(type) {
	case ourCluster:
		if !cl.st.OwnMetrics() || len(cl.st.EtcdURLs()) == 0 {
			return c, false, nil
		}
		if api, err = sampler.ScrapeWith(http.DefaultClient, cl.st.APIURL+"/metrics"); err != nil {
			return c, false, err
		}
		if etcd, err = sampler.ScrapeWith(http.DefaultClient, cl.st.EtcdURLs()[0]+"/metrics"); err != nil {
			return c, false, err
		}
	case todayCluster:
		// kube-apiserver itself, not the meter in front of it, which
		// serves counts of its own at the same path.
		cfg := cl.st.RESTConfig()
		cfg.Host = cl.st.DirectURL
		rc, err := rest.RESTClientFor(withJSON(cfg))
		if err != nil {
			return c, false, err
		}
		raw, err := rc.Get().AbsPath("/metrics").SetHeader("Accept", "text/plain").DoRaw(ctx)
		if err != nil {
			return c, false, fmt.Errorf("kube-apiserver's /metrics: %v", err)
		}
		if api, err = sampler.ParseMetrics(bytes.NewReader(raw)); err != nil {
			return c, false, err
		}
		if etcd, err = sampler.ScrapeWith(cl.st.HTTPClient(), cl.st.EtcdURL+"/metrics"); err != nil {
			return c, false, err
		}
	default:
		return c, false, nil
	}
	return ownCounts(api, etcd), true, nil
}

// countsResults are the figures of what the run cost the stack by its own
// counters, from before to after, in all and per pod of the size; and
// the apiserver's CPU per pod where the scenario measures it
// (apiserver_cpu).
func countsResults(before, after OwnCounts, pods int, results []Result) []Result {
	out := []Result{
		{Name: FigureAPIWrites, Process: sampler.ProcessAPIServer, Unit: "requests", Value: after.APIWrites - before.APIWrites, LowerIsBetter: true},
		{Name: FigureWatchEvents, Process: sampler.ProcessAPIServer, Unit: "events", Value: after.WatchEvents - before.WatchEvents, LowerIsBetter: true},
		{Name: FigureEtcdEntries, Process: sampler.ProcessAPIServer, Unit: "entries", Value: after.EtcdEntries - before.EtcdEntries, LowerIsBetter: true},
	}
	if pods <= 0 {
		return out
	}
	for _, r := range out[:3] {
		out = append(out, Result{Name: r.Name + "_per_pod", Process: r.Process, Unit: r.Unit + "/pod", Value: r.Value / float64(pods), LowerIsBetter: true})
	}
	if cpu, ok := ResultMap(results)["apiserver_cpu"]; ok {
		out = append(out, Result{Name: "apiserver_cpu_per_pod", Process: sampler.ProcessAPIServer, Unit: "CPU ms/pod", Value: 1000 * cpu / float64(pods), LowerIsBetter: true})
	}
	return out
}

// ownCountsTimeout bounds each read of the counters.
const ownCountsTimeout = 30 * time.Second

// readOwnCounts reads e's counters within ownCountsTimeout; ok is false
// where the cluster does not serve them or the read failed, which e says.
func (e *Env) readOwnCounts(ctx context.Context) (OwnCounts, bool) {
	ctx, cancel := context.WithTimeout(ctx, ownCountsTimeout)
	defer cancel()
	c, ok, err := e.OwnCounts(ctx)
	if err != nil {
		e.Say("the apiserver's own counters: %v", err)
		return c, false
	}
	return c, ok
}

// withJSON makes cfg fit for rest.RESTClientFor, which wants a group
// version and a codec even for a path outside the API.
func withJSON(cfg *rest.Config) *rest.Config {
	cfg.GroupVersion = &schema.GroupVersion{Version: "v1"}
	cfg.APIPath = "/api"
	cfg.NegotiatedSerializer = scheme.Codecs.WithoutConversion()
	return cfg
}

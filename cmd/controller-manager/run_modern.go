//go:build modern

package main

// The modern wiring, after kube-controller-manager as of v1.3x: one shared
// informer factory, the replication manager and endpoints controller fed
// from it with five workers each, the garbage collector's stand-in, a
// rate-limited client, and leader
// election so that only one of several controller-managers acts. 2014:
// run.go starts both loops at once, and two managers both act.

import (
	"context"
	"flag"
	"math/rand"
	"net/http"
	"time"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/controller"
	"github.com/kube-rewind/kube-rewind/pkg/modern/leaderelection"
	"github.com/kube-rewind/kube-rewind/pkg/modern/queuemetrics"
	"github.com/kube-rewind/kube-rewind/pkg/service"
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// Ours: upstream's flags are spelled with dashes (--kube-api-qps); these
// follow the 2014 binaries' underscores.
var (
	concurrentRCSyncs       = flag.Int("concurrent_rc_syncs", 5, "How many replication controllers are synced at once (modern).")
	concurrentEndpointSyncs = flag.Int("concurrent_endpoint_syncs", 5, "How many services' endpoints are synced at once (modern).")
	concurrentGCSyncs       = flag.Int("concurrent_gc_syncs", controller.ConcurrentGCSyncs, "How many pods the garbage collector stand-in works on at once (modern).")
	burstReplicas           = flag.Int("burst_replicas", controller.BurstReplicas, "The most pods one sync of a replication controller creates or deletes (modern).")
	kubeAPIQPS              = flag.Float64("kube_api_qps", 20, "Client-side limit on requests per second to the apiserver; 0 means no limit (modern).")
	kubeAPIBurst            = flag.Int("kube_api_burst", 30, "Burst of requests allowed above kube_api_qps (modern).")
	minResyncPeriod         = flag.Duration("min_resync_period", 12*time.Hour, "Informers replay their caches to the controllers every min_resync_period to twice that, at random (modern).")

	election = leaderelection.RegisterFlags(flag.CommandLine, " (modern)")
)

// clientConfig returns the modern client configuration: rate limited, and
// synchronous writes.
//
// Ours: Sync=true asks the apiserver to answer each write when it is done,
// as a modern apiserver always does; the v0.4 operation polling is turned
// off, so a write still running when the client stops waiting comes back
// as a "Working" error, which the manager treats as upstream treats a
// timeout.
func clientConfig() *client.Config {
	return &client.Config{
		Host:       *master,
		UserAgent:  "controller-manager",
		Sync:       true,
		PollPeriod: -1,
		// Every request of both controllers shares this one bucket, as
		// one clientset's did in 2015 (history: qps).
		QPS:       float32(wiredQPS()),
		Burst:     *kubeAPIBurst,
		Transport: modernTransport(),
	}
}

// maxConnsPerHost bounds the modern client's connections to the apiserver.
const maxConnsPerHost = 100

// modernTransport returns a connection pool of at most maxConnsPerHost
// connections; requests beyond that wait for a free one.
//
// Ours: the bound stands in for HTTP/2, on which client-go multiplexes
// every request over one connection. Over our HTTP/1.1 each request in
// flight holds a connection and two goroutines, so an unbounded batch of
// 245 creates would make the goroutine count measure the transport, not
// the design. The 2014 build keeps the unbounded pool its clients had.
func modernTransport() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxConnsPerHost = maxConnsPerHost
	t.MaxIdleConnsPerHost = maxConnsPerHost
	return t
}

func run(kubeClient client.Interface, registry *prometheus.Registry) {
	initKlog()
	glog.Infof("modern design: informers and workqueues; -sync_period and -endpoints_period are not used")

	// Named queues report through this provider; it must be set before the
	// first queue is made.
	workqueue.SetProvider(queuemetrics.NewProvider(registry))

	factory := newInformers(kubeClient, resyncPeriod())
	sw, w := switches()
	rm := controller.NewReplicationManager(factory.Pods(), factory.ReplicationControllers(), kubeClient, w.burstReplicas)
	rm.Without = sw
	rm.RegisterMetrics(registry)
	endpoints := service.NewEndpointController(factory.Pods(), factory.Services(), factory.Endpoints(), kubeClient)
	// The pods of a deleted controller go with it (history:
	// garbage-collector).
	var gc *controller.GarbageCollector
	if w.garbageCollector {
		gc = controller.NewGarbageCollector(factory.Pods(), factory.ReplicationControllers(), kubeClient)
		gc.RegisterMetrics(registry)
	}

	runControllers := func(ctx context.Context) {
		factory.Start(ctx.Done())
		go endpoints.Run(ctx, *concurrentEndpointSyncs)
		if gc != nil {
			go gc.Run(ctx, *concurrentGCSyncs)
		}
		rm.Run(ctx, *concurrentRCSyncs)
	}

	if !w.leaderElect {
		runControllers(context.Background())
		select {}
	}

	// A client of its own, named for the apiserver's per-component
	// request counts (see leaderelection.Lead).
	leaderelection.Lead(newElectionClient(), election, runControllers)
}

// resyncPeriod picks the informers' resync period at random between
// min_resync_period and twice that, so that controllers started together
// do not all replay their caches at once (upstream: 12 to 24 hours).
func resyncPeriod() time.Duration {
	return time.Duration(float64(minResyncPeriod.Nanoseconds()) * (1 + rand.Float64()))
}

// initKlog routes client-go's klog output to stderr at glog's verbosity.
// glog owns the process's global flags (-v, -logtostderr), so klog gets a
// flag set of its own: registering its flags globally would panic.
func initKlog() {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	if v := flag.Lookup("v"); v != nil {
		fs.Set("v", v.Value.String())
	}
}

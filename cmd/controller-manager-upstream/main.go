package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/cmd/controller-manager-upstream/adapter"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/controller"
	"github.com/kube-rewind/kube-rewind/pkg/history"
	"github.com/kube-rewind/kube-rewind/pkg/modern/informers"
	"github.com/kube-rewind/kube-rewind/pkg/modern/leaderelection"
	"github.com/kube-rewind/kube-rewind/pkg/modern/queuemetrics"
	"github.com/kube-rewind/kube-rewind/pkg/service"
	"github.com/kube-rewind/kube-rewind/pkg/util"
	"github.com/kube-rewind/kube-rewind/pkg/version/verflag"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/replication"
)

// The flags of our modern controller-manager, spelled as its are.
var (
	master  = flag.String("master", "", "The address of the apiserver, host:port or a URL.")
	address = flag.String("address", "127.0.0.1", "The IP address to serve /healthz and /metrics on (0.0.0.0 for all interfaces).")
	port    = flag.Int("port", 10252, "The port to serve /healthz and /metrics on.")

	// Taken, and not used: the launcher passes them to every manager, and
	// upstream's has no period.
	_ = flag.Duration("sync_period", 10*time.Second, "Not used: upstream's replication manager has no sync period.")
	_ = flag.Duration("endpoints_period", 10*time.Second, "Not used: the endpoints controller works from informers.")

	concurrentRCSyncs       = flag.Int("concurrent_rc_syncs", 5, "How many replication controllers upstream's manager syncs at once.")
	concurrentEndpointSyncs = flag.Int("concurrent_endpoint_syncs", 5, "How many services' endpoints are synced at once.")
	concurrentGCSyncs       = flag.Int("concurrent_gc_syncs", controller.ConcurrentGCSyncs, "How many pods the garbage collector stand-in works on at once.")
	burstReplicas           = flag.Int("burst_replicas", replication.BurstReplicas, "The most pods one sync of a replication controller creates or deletes.")
	kubeAPIQPS              = flag.Float64("kube_api_qps", 20, "Client-side limit on requests per second to the apiserver; 0 means no limit.")
	kubeAPIBurst            = flag.Int("kube_api_burst", 30, "Burst of requests allowed above kube_api_qps.")
	minResyncPeriod         = flag.Duration("min_resync_period", 12*time.Hour, "Informers replay their caches to the controllers every min_resync_period to twice that, at random.")

	election = leaderelection.RegisterFlags(flag.CommandLine, "")

	without = flag.String("without", "", "Comma-separated changes of the history to switch off; only those outside the replication manager ("+strings.Join(wiringSwitches, ", ")+"), which upstream's runs unmodified.")
)

// wiringSwitches are the changes of pkg/history this binary can switch
// off: they live around the replication manager, not in it.
var wiringSwitches = []string{"qps", "burst-cap", "leader-election", "garbage-collector"}

func main() {
	flag.Parse()
	util.InitLogs()
	defer util.FlushLogs()
	verflag.PrintAndExitIfRequested()
	if *master == "" {
		glog.Fatal("usage: controller-manager-upstream -master <master>")
	}
	applyWithout()
	initKlog()

	registry := prometheus.NewRegistry()
	registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	service.RegisterMetrics(registry)
	metrics := adapter.NewMetrics(registry)
	// Named queues report through this provider; it must be set before the
	// first queue is made.
	workqueue.SetProvider(newSyncCounter(queuemetrics.NewProvider(registry), registry))
	serveHTTP(registry)

	kubeClient, err := client.New(clientConfig("controller-manager"))
	if err != nil {
		glog.Fatalf("invalid API configuration: %v", err)
	}
	clientset := adapter.New(kubeClient, metrics)
	factory := informers.NewSharedInformerFactory(kubeClient, time.Duration(float64(minResyncPeriod.Nanoseconds())*(1+rand.Float64())))

	runControllers := func(ctx context.Context) {
		// As kube-controller-manager does: the controllers are made once
		// leading, and the informers start after them.
		rm := replication.NewReplicationManager(ctx, factory.Pods(), factory.ReplicationControllers(), clientset, *burstReplicas)
		endpoints := service.NewEndpointController(factory.Pods(), factory.Services(), factory.Endpoints(), kubeClient)
		var gc *controller.GarbageCollector
		if garbageCollector {
			gc = controller.NewGarbageCollector(factory.Pods(), factory.ReplicationControllers(), kubeClient)
			gc.RegisterMetrics(registry)
		}
		factory.Start(ctx.Done())
		go endpoints.Run(ctx, *concurrentEndpointSyncs)
		if gc != nil {
			go gc.Run(ctx, *concurrentGCSyncs)
		}
		rm.Run(ctx, *concurrentRCSyncs)
	}
	if !election.Elect {
		runControllers(context.Background())
		return
	}
	lead(runControllers)
}

// garbageCollector says whether the garbage collector stand-in runs; upstream's own
// collector needs the metadata API and discovery of every resource, which
// the adapter, a clientset of two resources, does not serve.
var garbageCollector = true

// applyWithout reads -without and applies it to the flags it overrides.
func applyWithout() {
	off, err := history.ParseWithout(*without)
	if err != nil {
		fmt.Fprintf(os.Stderr, "controller-manager-upstream: %v\n", err)
		os.Exit(2)
	}
	for name := range off {
		switch name {
		case "qps":
			*kubeAPIQPS = 0
		case "burst-cap":
			*burstReplicas = math.MaxInt32
		case "leader-election":
			election.Elect = false
		case "garbage-collector":
			garbageCollector = false
		default:
			fmt.Fprintf(os.Stderr, "controller-manager-upstream: -without=%s: upstream's replication manager runs unmodified; this binary can switch off only %s\n",
				name, strings.Join(wiringSwitches, ", "))
			os.Exit(2)
		}
	}
	if len(off) > 0 {
		glog.Infof("running without %s (pkg/history)", history.FormatWithout(off))
	}
}

// clientConfig is our modern controller-manager's client: synchronous
// writes, rate limited, at most 100 connections (see clientConfig and
// modernTransport in cmd/controller-manager/run_modern.go).
func clientConfig(userAgent string) *client.Config {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxConnsPerHost = 100
	t.MaxIdleConnsPerHost = 100
	return &client.Config{
		Host: *master, UserAgent: userAgent, Sync: true, PollPeriod: -1,
		QPS: float32(*kubeAPIQPS), Burst: *kubeAPIBurst, Transport: t,
	}
}

// lead runs the controllers while this process holds the lock our modern
// managers take, and exits when it loses it.
func lead(runControllers func(context.Context)) {
	electionClient, err := client.New(clientConfig("leader-election"))
	if err != nil {
		glog.Fatalf("invalid API configuration: %v", err)
	}
	leaderelection.Lead(electionClient, election, runControllers)
}

// serveHTTP starts the /healthz and /metrics server, as our
// controller-manager's does.
func serveHTTP(registry *prometheus.Registry) {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	mux.Handle("/metrics", promhttp.HandlerFor(registry, promhttp.HandlerOpts{}))
	addr := net.JoinHostPort(*address, strconv.Itoa(*port))
	listener, err := net.Listen("tcp", addr)
	if err != nil {
		glog.Fatalf("cannot serve on %s: %v", addr, err)
	}
	glog.Infof("serving /healthz and /metrics on http://%s", listener.Addr())
	go func() { glog.Fatal(http.Serve(listener, mux)) }()
}

// initKlog routes upstream's klog output to stderr at glog's verbosity.
// glog owns the process's global flags, so klog gets a flag set of its own.
func initKlog() {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	if v := flag.Lookup("v"); v != nil {
		fs.Set("v", v.Value.String())
	}
}

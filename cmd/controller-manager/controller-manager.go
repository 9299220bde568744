// Command controller-manager runs the replication manager and the endpoints
// controller against an apiserver. The default build is the v0.4 manager of
// October 2014; built with -tags modern it is today's design.
//
// Follows kubernetes/kubernetes cmd/controller-manager/controller-manager.go
// as of v0.4 (October 2014).
package main

import (
	"flag"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/controller"
	"github.com/kube-rewind/kube-rewind/pkg/service"
	"github.com/kube-rewind/kube-rewind/pkg/util"
	"github.com/kube-rewind/kube-rewind/pkg/version/verflag"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

var (
	master  = flag.String("master", "", "The address of the apiserver, host:port or a URL.")
	address = flag.String("address", "127.0.0.1", "The IP address to serve /healthz and /metrics on (0.0.0.0 for all interfaces).")
	port    = flag.Int("port", 10252, "The port to serve /healthz and /metrics on.")

	// Ours: v0.4 hard-coded both periods to 10 s. They are flags, still
	// defaulting to 10 s, so tests and demos can shorten them.
	syncPeriod      = flag.Duration("sync_period", 10*time.Second, "The replication manager's synchronize period.")
	endpointsPeriod = flag.Duration("endpoints_period", 10*time.Second, "How often the endpoints controller syncs every service.")
)

func main() {
	flag.Parse()
	util.InitLogs()
	defer util.FlushLogs()
	verflag.PrintAndExitIfRequested()

	kubeClient := newClient()
	registry := prometheus.NewRegistry()
	registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	controller.RegisterMetrics(registry)
	service.RegisterMetrics(registry)
	serveHTTP(registry)

	run(kubeClient, registry)
}

// masterClient returns the client of -master, built from the build's
// clientConfig, or exits printing usage when -master is not set.
func masterClient(usage string) client.Interface {
	// As in v0.4: a fatal log line and every goroutine's stack, then exit
	// (255 in 2014, 2 with today's glog; see pkg/util/logs.go).
	if *master == "" {
		glog.Fatal(usage)
	}
	kubeClient, err := client.New(clientConfig())
	if err != nil {
		glog.Fatalf("invalid API configuration: %v", err)
	}
	return kubeClient
}

// serveHTTP starts the /healthz and /metrics server.
//
// Ours: v0.4 served only /healthz; /metrics is for benchmarks and talks.
// v0.4 also dropped the error of a failed listen (a second manager on one
// host ran on without /healthz); here the process stops, because the stack
// and the benchmark find, wait for and measure a manager at its port, and
// one without it would be taken for whatever else answers there.
func serveHTTP(registry *prometheus.Registry) {
	if ip := net.ParseIP(*address); ip == nil || !ip.IsLoopback() {
		glog.Warningf("serving /healthz and /metrics on %s, which is not a loopback address", *address)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("ok"))
	})
	mux.Handle("/metrics", promhttp.HandlerFor(registry, promhttp.HandlerOpts{}))
	addr := net.JoinHostPort(*address, strconv.Itoa(*port))
	listener, err := net.Listen("tcp", addr)
	if err != nil {
		glog.Fatalf("cannot serve on %s: %v", addr, err)
	}
	glog.Infof("serving /healthz and /metrics on http://%s", listener.Addr())
	go func() {
		glog.Fatal(http.Serve(listener, mux))
	}()
}

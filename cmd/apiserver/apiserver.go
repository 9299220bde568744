// Command apiserver serves the 2014 v1beta1 API over etcd: embedded by
// default, or the external members named by -etcd_servers. Follows
// kubernetes/kubernetes cmd/apiserver/apiserver.go as of v0.4 (October 2014).
//
// Ours: etcd is embedded unless -etcd_servers is given (v0.4 stopped unless
// exactly one of -etcd_servers and -etcd_config was), so one command starts
// a working apiserver; minions register themselves instead of coming from
// -machines; the fault flags and /admin/faults are this project's.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/lab/faults"
	"github.com/kube-rewind/kube-rewind/pkg/master"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
	"github.com/kube-rewind/kube-rewind/pkg/util"
	"github.com/kube-rewind/kube-rewind/pkg/version/verflag"
)

var (
	address         = flag.String("address", "127.0.0.1", "The IP address to serve on (0.0.0.0 for all interfaces).")
	port            = flag.Int("port", 8080, "The port to serve on.")
	etcdServers     = flag.String("etcd_servers", "", "Comma-separated etcd client URLs (v2 API enabled). Empty: run etcd embedded.")
	etcdDataDir     = flag.String("etcd_data_dir", filepath.Join(os.TempDir(), "kube-rewind-etcd"), "Data directory of the embedded etcd; a restart with the same directory keeps every object.")
	etcdWALSegment  = flag.Int64("etcd_wal_segment_bytes", 0, "The size of each of the embedded etcd's write-ahead log segments (0: etcd's 64 MB). Ours: for the laboratory's reader of the log, which reads the segment it is in from its start each time it looks.")
	etcdFast        = flag.Bool("etcd_fast", false, "Run the embedded etcd with 10 ms ticks and no fsync: for tests and benchmarks, never for data you want to keep.")
	etcdClientPort  = flag.Int("etcd_client_port", 0, "The loopback port of the embedded etcd's client (v2 HTTP) listener (0: any free one).")
	etcdPeerPort    = flag.Int("etcd_peer_port", 0, "The loopback port of the embedded etcd's peer listener (0: any free one, which no other member can reach); the laboratory's learner joins there.")
	maxRequestBytes = flag.Int64("max_request_bytes", apiserver.DefaultMaxRequestBytes, "The largest request body accepted.")
	closeWatches    = flag.Duration("close_watches_every", 0, "Fault: close every watch stream this often (0: never).")
	faultSeed       = flag.Uint64("fault_seed", 0, "Fault: the seed of -fail's random choices, so that a run sees the same sequence of failures; 0 takes one from the clock.")
	failRules       faults.FailRules
	latencyRules    faults.LatencyRules
)

var (
	readPodStatus  = flag.Bool("read_pod_status", true, "Compute each pod's status on every GET and LIST as v0.4 did: one LIST of the minions per bound pod, sent by the apiserver to itself over HTTP, and Terminated when the pod's host is not a registered minion. false: pods are read as stored, cheaper than in 2014.")
	minionCacheTTL = flag.Duration("minion_cache_ttl", master.DefaultMinionCacheTTL, "How old the list of minions the apiserver serves may be (minions created or deleted through it show at once); 0 reads etcd every time.")
)

// Ours: v0.4 had no profiling endpoint; this one lets the apiserver's own
// costs (encoding, decoding, copying) be measured. It serves only on a
// loopback address, apart from the API.
var profilingAddress = flag.String("profiling_address", "", "Serve Go's /debug/pprof/ on this loopback address, e.g. 127.0.0.1:6060 (empty: not at all).")

// Ours: v0.4 fixed the server's timeouts at five minutes in its code; the
// flag keeps that default and lets tests shorten it.
var serverTimeout = flag.Duration("server_timeout", apiserver.DefaultServerTimeout, "ReadTimeout and WriteTimeout of the HTTP server, v0.4's fixed 5m: a watch stream ends after this long and its client must watch again (0: no limit).")

func init() {
	flag.Var(&failRules, "fail", "Fault: VERB:RESOURCE:FRACTION:CODE, e.g. POST:pods:0.1:500 (repeatable; * matches any).")
	flag.Var(&latencyRules, "latency", "Fault: VERB:RESOURCE:DURATION, e.g. POST:pods:50ms (repeatable).")
}

func main() {
	flag.Parse()
	util.InitLogs()
	defer util.FlushLogs()
	verflag.PrintAndExitIfRequested()

	servers, stopEtcd, err := etcdClientURLs()
	if err != nil {
		fmt.Fprintf(os.Stderr, "apiserver: %v\n", err)
		os.Exit(1)
	}
	helper := tools.EtcdHelper{Client: tools.NewEtcdClient(servers)}

	if ip := net.ParseIP(*address); ip == nil || !ip.IsLoopback() {
		glog.Warningf("serving on %s, which is not a loopback address: anyone who can reach it can change the cluster", *address)
	}
	addr := net.JoinHostPort(*address, strconv.Itoa(*port))
	listener, err := net.Listen("tcp", addr)
	if err != nil {
		stopEtcd()
		fmt.Fprintf(os.Stderr, "apiserver: cannot listen on %s: %v\n", addr, err)
		os.Exit(1)
	}
	if err := serveProfiling(*profilingAddress); err != nil {
		stopEtcd()
		fmt.Fprintf(os.Stderr, "apiserver: %v\n", err)
		os.Exit(2)
	}
	storage := master.New(helper, storageConfig(listener.Addr().(*net.TCPAddr)))

	// Ours: the laboratory's fault switch wraps every resource's storage
	// and answers at /admin/faults; without rules it passes every call
	// through untouched.
	seed := *faultSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	fs := faults.New(seed)
	registry := apiserver.NewRegistry()
	stopWatches := make(chan struct{})
	mux := http.NewServeMux()
	mux.Handle("/admin/faults", fs)
	mux.Handle("/", apiserver.Handle(fs.Wrap(storage, registry), apiserver.DefaultPrefix, apiserver.Options{
		MaxRequestBytes: *maxRequestBytes,
		Registry:        registry,
		StopWatches:     stopWatches,
	}))
	if err := fs.Set(faults.Config{Fail: failRules, Latency: latencyRules, CloseWatchesEvery: faults.Duration(*closeWatches)}); err != nil {
		stopEtcd()
		fmt.Fprintf(os.Stderr, "apiserver: bad fault flags: %v\n", err)
		os.Exit(2)
	}

	// v0.4's five-minute timeouts are what ended its watch streams.
	server := apiserver.NewHTTPServer(mux, *serverTimeout)
	glog.Infof("serving the v1beta1 API on http://%s", listener.Addr())

	// Ours: a shutdown ends the watch streams cleanly and waits for every
	// request to finish before etcd stops. Serve returns as soon as the
	// shutdown begins; stopping etcd then, as this did at first, sent every
	// watcher an ERROR (503, etcd unreachable) instead of the end of its
	// stream, and failed the requests still in flight.
	server.RegisterOnShutdown(func() { close(stopWatches) })
	shutdownDone := make(chan struct{})
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		defer close(shutdownDone)
		sig := <-signals
		glog.Infof("%v: shutting down", sig)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := server.Shutdown(ctx); err != nil {
			glog.Warningf("requests still running after %v: %v", 5*time.Second, err)
		}
	}()
	if err := server.Serve(listener); err != http.ErrServerClosed {
		glog.Errorf("serving: %v", err)
	} else {
		<-shutdownDone
	}
	stopEtcd()
}

// storageConfig returns how the storage reads pods and minions. With
// -read_pod_status the pod storage lists the minions through a client of
// this very apiserver, at addr, as v0.4's master did with its own client.
//
// Ours: the loopback client names its component "apiserver" in its
// User-Agent, so /metrics counts these requests apart from the callers'.
func storageConfig(addr *net.TCPAddr) master.Config {
	config := master.Config{MinionCacheTTL: *minionCacheTTL}
	if !*readPodStatus {
		return config
	}
	host := addr.IP
	if host.IsUnspecified() {
		host = net.IPv4(127, 0, 0, 1)
	}
	config.Minions = client.NewOrDie(&client.Config{
		Host:      "http://" + net.JoinHostPort(host.String(), strconv.Itoa(addr.Port)),
		UserAgent: "apiserver",
	})
	return config
}

// serveProfiling serves net/http/pprof on addr, which must be a loopback
// address; an empty addr serves nothing.
func serveProfiling(addr string) error {
	if addr == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-profiling_address %q: %v", addr, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-profiling_address %q: not a loopback address", addr)
	}
	listener, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("-profiling_address: %v", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	go http.Serve(listener, mux)
	return nil
}

// etcdClientURLs returns the etcd members to use and a function that stops
// the embedded one, if any.
func etcdClientURLs() ([]string, func(), error) {
	if *etcdServers != "" {
		var servers []string
		for _, s := range strings.Split(*etcdServers, ",") {
			if s = strings.TrimSpace(s); s != "" {
				servers = append(servers, s)
			}
		}
		glog.Infof("using etcd at %v", redacted(servers))
		return servers, func() {}, nil
	}
	if err := os.MkdirAll(*etcdDataDir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("etcd data dir: %v", err)
	}
	srv, err := etcd.Start(etcd.Config{DataDir: *etcdDataDir, ClientPort: *etcdClientPort, PeerPort: *etcdPeerPort, FastTicks: *etcdFast, NoFsync: *etcdFast, WALSegmentBytes: *etcdWALSegment})
	if err != nil {
		return nil, nil, fmt.Errorf("starting embedded etcd in %s: %v", *etcdDataDir, err)
	}
	fmt.Fprintf(os.Stderr, "embedded etcd at %s, data in %s\n", srv.ClientURL(), *etcdDataDir)
	// Ours: this process's own requests reach the member in memory (see
	// etcd.Server.Dial); other processes use the URL above.
	u, err := url.Parse(srv.ClientURL())
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	tools.DialInProcess(u.Host, srv.Dial)
	stop := func() {
		// etcd's Close waits for every client connection to end, including
		// ones the transport dialed and never used.
		tools.CloseIdleConnections()
		srv.Close()
	}
	return []string{srv.ClientURL()}, stop, nil
}

// redacted returns urls with any password replaced, for the log.
//
// Ours: v0.4 logged the etcd URLs as given.
func redacted(urls []string) []string {
	out := make([]string, len(urls))
	for i, s := range urls {
		out[i] = s
		if u, err := url.Parse(s); err == nil && u.User != nil {
			out[i] = u.Redacted()
		}
	}
	return out
}

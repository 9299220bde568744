// Command hollow-node pretends to be the 2014 scheduler and a set of
// kubelets: it registers minions, binds pods to them and marks them Running.
// It is not part of 2014; see pkg/lab/hollownode.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/etcdpods"
	"github.com/kube-rewind/kube-rewind/pkg/lab/hollownode"
	"github.com/kube-rewind/kube-rewind/pkg/lab/walpods"
	"github.com/kube-rewind/kube-rewind/pkg/util"
	"github.com/kube-rewind/kube-rewind/pkg/version/verflag"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2store"
	"go.uber.org/zap"
)

var (
	master       = flag.String("master", "", "The address of the apiserver, host:port or a URL.")
	nodes        = flag.Int("nodes", 10, "How many minions to register.")
	prefix       = flag.String("name_prefix", "hollow-node-", "Prefix of the minion names.")
	startDelay   = flag.Duration("start_delay", 500*time.Millisecond, "Time from binding a pod to reporting it Running.")
	workers      = flag.Int("workers", 32, "Concurrent binds, and concurrent status writes beside them.")
	failFraction = flag.Float64("fail_fraction", 0, "Share of pods that go Terminated instead of Running (0..1).")
	churn        = flag.Float64("churn", 0, "Running pods to delete per second.")
	seed         = flag.Int64("seed", 0, "Seed for the random choices (0: from the clock).")
	etcdServers  = flag.String("etcd_servers", "", "Comma-separated etcd client URLs to read pods from directly, by etcd's stream watch and long polls (empty: list and watch them through the apiserver). Writes always go through the apiserver.")
	etcdTail     = flag.Bool("etcd_tail", false, "With -etcd_servers naming one learner that another process runs with a tail (the benchmark's; pkg/lab/etcdpods.NewLearner): list pods there and watch them through its tail, which drops no event.")
	address      = flag.String("address", "127.0.0.1", "The IP address to serve /healthz, /metrics and /admin on.")
	port         = flag.Int("port", 10260, "The port to serve /healthz, /metrics and /admin on (0: any free port).")
	learnerOf    = flag.String("learner_of", "", "Run no hollow nodes: join the etcd cluster at these comma-separated client URLs as a learner instead, the laboratory's reader (pkg/lab/etcdpods.ServeLearner), in this process, so that its CPU is counted apart; its client listener, on -port, serves its tail and /healthz. It leaves the cluster on SIGTERM.")
	learnerDir   = flag.String("learner_dir", "", "With -learner_of: the learner's data directory (new).")
	learnerPeer  = flag.Int("learner_peer_port", 0, "With -learner_of: the learner's peer port on loopback (required: the cluster must know it before the learner starts).")
	walOf        = flag.String("wal_of", "", "Run no hollow nodes: read the pods from the write-ahead log of the etcd member whose data directory this is, read-only (pkg/lab/walpods), the laboratory's reader that costs the member nothing, in this process, so that its CPU is counted apart; serve what it read as a learner's client listener does, on -port: its tail, the v2 API's reads of keys, /healthz.")
	walCommit    = flag.String("wal_commit_from", "", "With -wal_of: the client URL of the member whose log it reads, in a cluster of several, to ask what it has applied (etcd's Status) where the log has not yet said that the entries it holds are committed: a member of several saves the commit of a burst's last entries only with its next write.")
	walV3        = flag.Bool("wal_v3", false, "With -wal_of: the member is today's, which kube-apiserver writes through etcd's v3 API; its pods of the default namespace are served as 2014's pods, each as our apiserver would store the pod the laboratory sees in it (pkg/lab/etcdpods, V1Mirror), so that the laboratory reads today's stack as it reads 2014's.")
	walEvery     = flag.Duration("wal_every", 50*time.Millisecond, fmt.Sprintf("With -wal_of: how often to look at the log for entries it did not have; a look that finds the log as it was and unchanged for %v costs a stat, and one sooner after its last change reads what was appended since.", walpods.LogSettle))
	kubeletPort  = flag.Int("kubelet_port", 0, "Act as v0.4's kubelets, for an apiserver that asks them for pod status (the original v0.4 apiserver, with this as its -minion_port): name the minions 127.0.0.2 and up, serve /healthz and /podInfo on each of those addresses at this port, and write no pod status (0: write it, as our apiserver expects).")
)

func main() {
	flag.Parse()
	util.InitLogs()
	defer util.FlushLogs()
	verflag.PrintAndExitIfRequested()
	if *learnerOf != "" {
		serveLearner()
		return
	}
	if *walOf != "" {
		serveWAL()
		return
	}
	if *master == "" {
		fmt.Fprintln(os.Stderr, "usage: hollow-node -master <master> [-nodes N]")
		os.Exit(2)
	}
	kubeClient, err := client.New(&client.Config{Host: *master, UserAgent: "hollow-node", Sync: true})
	if err != nil {
		glog.Fatalf("invalid API configuration: %v", err)
	}
	var pods etcdpods.Pods
	switch {
	case *etcdServers != "" && *etcdTail:
		pods = etcdpods.NewTailReader(*etcdServers)
	case *etcdServers != "":
		pods = etcdpods.New(strings.Split(*etcdServers, ","))
	}
	cluster := hollownode.New(kubeClient, hollownode.Config{
		Pods:           pods,
		Nodes:          *nodes,
		NamePrefix:     *prefix,
		StartDelay:     *startDelay,
		Workers:        *workers,
		FailFraction:   *failFraction,
		ChurnPerSecond: *churn,
		Seed:           *seed,
		KubeletPort:    *kubeletPort,
	})

	registry := prometheus.NewRegistry()
	registry.MustRegister(collectors.NewGoCollector(), cluster.Collector())
	mux := http.NewServeMux()
	mux.Handle("/healthz", cluster.HealthzHandler())
	mux.Handle("/metrics", promhttp.HandlerFor(registry, promhttp.HandlerOpts{}))
	mux.Handle("/admin", cluster.AdminHandler())
	mux.Handle("/admin/", cluster.AdminHandler())
	// Go's profiles, so that the benchmark can tell where the stand-in's
	// CPU goes; like /admin, on loopback by default.
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	if ip := net.ParseIP(*address); ip == nil || !ip.IsLoopback() {
		glog.Warningf("serving on %s, which is not a loopback address; /admin still answers loopback callers only", *address)
	}
	listener, err := net.Listen("tcp", net.JoinHostPort(*address, strconv.Itoa(*port)))
	if err != nil {
		glog.Fatalf("cannot listen: %v", err)
	}
	glog.Infof("hollow nodes serving /healthz, /metrics and /admin on http://%s", listener.Addr())
	go http.Serve(listener, mux)

	stopCh := make(chan struct{})
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		<-signals
		close(stopCh)
	}()
	if err := cluster.Run(stopCh); err != nil {
		glog.Fatalf("hollow nodes: %v", err)
	}
}

// serveLearner runs the laboratory's learner until SIGINT or SIGTERM, then
// takes it out of its cluster.
func serveLearner() {
	if *learnerDir == "" {
		glog.Fatalf("-learner_of needs -learner_dir")
	}
	src, err := etcdpods.ServeLearner(strings.Split(*learnerOf, ","), *learnerDir, *learnerPeer, *port)
	if err != nil {
		glog.Fatalf("the laboratory's learner: %v", err)
	}
	glog.Infof("the laboratory's learner serves its tail and /healthz on %s", src.LearnerURL())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	<-signals
	src.Close()
}

// serveWAL runs the laboratory's reader of the member's write-ahead log
// until SIGINT or SIGTERM: it applies what the log committed to a v2 store
// of its own, each time the log's files change and until their last
// change has settled (walpods.Unchanged), and serves that store as
// a learner's client listener serves its member (etcdpods.ServeStore), so
// that the hollow nodes and the benchmark read it as they read a learner.
func serveWAL() {
	r := walpods.NewReader(*walOf)
	store := r.Store()
	var mirror *etcdpods.V1Mirror
	if *walV3 {
		r = walpods.NewReaderV3(*walOf)
		mirror = etcdpods.NewV1Mirror("default")
		store = mirror.Store()
	}
	if *walCommit != "" {
		r.AskCommit(memberCommit(*walCommit))
	}
	var mu sync.RWMutex
	var failed atomic.Pointer[error]
	first := make(chan struct{})
	health := func() error {
		select {
		case <-first:
		default:
			return errors.New("the log has not been read yet")
		}
		if err := failed.Load(); err != nil {
			return *err
		}
		return nil
	}
	srv, err := etcdpods.ServeFedStore(store, &mu, *port, health, readerMetrics)
	if err != nil {
		glog.Fatalf("the laboratory's reader of the write-ahead log: %v", err)
	}
	glog.Infof("the laboratory's reader of %s serves its tail and /healthz on %s", *walOf, srv.URL)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	tick := time.NewTicker(*walEvery)
	defer tick.Stop()
	var seen walpods.LogState
	for {
		select {
		case <-signals:
			srv.Close()
			return
		case <-tick.C:
		}
		now, err := walpods.StateOf(*walOf)
		if err == nil && walpods.Unchanged(seen, now, time.Now()) && !(*walCommit != "" && r.Waiting()) {
			continue
		}
		mu.Lock()
		events, cost, err := r.Poll()
		readCPU.Add(cost.ReadCPU.Seconds())
		applyCPU.Add((cost.CPU - cost.ReadCPU).Seconds())
		if cost.Bytes > 0 {
			readBytes.Add(float64(cost.Bytes))
		}
		fellBacks.Add(float64(cost.FellBacks))
		if cost.FellBacks > 0 {
			glog.Infof("a poll of the write-ahead log read with etcd's ReadAll: %v", r.FellBackFor())
		}
		fed := make([]*v2store.Event, 0, len(events))
		for _, e := range events {
			if mirror != nil {
				e.V2 = mirrored(mirror, e)
			}
			if e.V2 != nil {
				fed = append(fed, e.V2)
			}
		}
		mu.Unlock()
		srv.Feed(fed)
		if len(events) > 0 && err == nil && !now.ModTime.IsZero() {
			// The log's newest segment was last written when the member
			// wrote the newest entry this poll read: from then to now is
			// how far the laboratory's view of the pods lags the member's.
			lag := time.Since(now.ModTime).Seconds()
			readLag.Observe(lag)
			if lag > readLagMax.Load() {
				readLagMax.Store(lag)
			}
		}
		if err != nil {
			glog.Warningf("reading the write-ahead log: %v", err)
			if r.Lost() {
				failed.Store(&err)
			}
			continue
		}
		seen = now
		select {
		case <-first:
		default:
			close(first)
		}
	}
}

// memberCommit asks the member at url what it has applied (its applied
// index and the term of the entry there), for walpods' AskCommit. The
// poll that asks holds the store's lock, which the tail's readers wait
// for, so it never waits for the member: each call returns the answer
// fetched since the last one, or an error if none came, and starts the
// next fetch, on a client of its own.
func memberCommit(url string) func() (uint64, uint64, error) {
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{url}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		glog.Fatalf("-wal_commit_from=%s: %v", url, err)
	}
	var (
		mu             sync.Mutex
		fresh          bool
		applied, term  uint64
		busy           atomic.Bool
		errNoAnswerYet = errors.New("no answer from the member since the last poll")
	)
	return func() (uint64, uint64, error) {
		if busy.CompareAndSwap(false, true) {
			go func() {
				defer busy.Store(false)
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				defer cancel()
				st, err := cli.Status(ctx, url)
				if err != nil {
					return
				}
				mu.Lock()
				fresh, applied, term = true, st.RaftAppliedIndex, st.Header.RaftTerm
				mu.Unlock()
			}()
		}
		mu.Lock()
		defer mu.Unlock()
		if !fresh {
			return 0, 0, errNoAnswerYet
		}
		fresh = false
		return applied, term, nil
	}
}

// The reader's lag: at each poll that read entries, the time since the
// member last wrote its log.
var (
	readLag = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "walpods_read_lag_seconds",
		Help:    "At each poll of the write-ahead log that read entries, the seconds since the member last wrote the log, whose newest entry the poll read.",
		Buckets: prometheus.ExponentialBuckets(0.001, 2, 16),
	})
	readLagMax atomicFloat
)

// readerMetrics are the reader's metrics, and all that its /metrics
// serves: the benchmark scrapes them through every run, so the Go
// runtime's and the process's (which the benchmark reads from /proc) are
// left out.
var readerMetrics = prometheus.NewRegistry()

// Where the reader's polls spend its CPU, as the polling thread measures
// it: reading the log (its system calls and the decoding) and applying
// it to the reader's store. The rest of the process's CPU is the serving
// of its tail, the garbage collector and the runtime.
var (
	readCPU = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "walpods_read_cpu_seconds_total",
		Help: "The polling thread's CPU reading the write-ahead log: its system calls and the decoding.",
	})
	applyCPU = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "walpods_apply_cpu_seconds_total",
		Help: "The polling thread's CPU applying what it read to the reader's store.",
	})
	readBytes = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "walpods_read_bytes_total",
		Help: "The bytes the polling thread's read system calls returned.",
	})
	fellBacks = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "walpods_fallbacks_total",
		Help: "Polls that went back to etcd's ReadAll, which reads the segment holding the last entry from its start.",
	})
)

func init() {
	readerMetrics.MustRegister(readCPU, applyCPU, readBytes, fellBacks)
	readerMetrics.MustRegister(readLag)
	readerMetrics.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "walpods_read_lag_max_seconds",
		Help: "The largest walpods_read_lag_seconds observed.",
	}, readLagMax.Load))
}

// atomicFloat is a float64 read and written atomically.
type atomicFloat struct{ bits atomic.Uint64 }

func (f *atomicFloat) Load() float64   { return math.Float64frombits(f.bits.Load()) }
func (f *atomicFloat) Store(v float64) { f.bits.Store(math.Float64bits(v)) }

// mirrored writes a v3 pod event to the mirror and returns the mirror's
// event of it; nil for a pod of another namespace, or a value that is no
// pod (which it logs).
func mirrored(m *etcdpods.V1Mirror, e walpods.Event) *v2store.Event {
	pod, err := e.Pod()
	if err == nil {
		var fed *v2store.Event
		fed, err = m.Apply(e.Type == walpods.Deleted, pod)
		if err == nil {
			return fed
		}
	}
	glog.Warningf("%s: %v", e, err)
	return nil
}

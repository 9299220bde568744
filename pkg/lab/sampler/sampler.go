package sampler

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
)

// Series names the sampler records.
const (
	PodsUnscheduled = "pods.unscheduled"
	PodsWaiting     = "pods.waiting"
	PodsRunning     = "pods.running"
	PodsTerminated  = "pods.terminated"
	PodsActive      = "pods.active"
	PodsCreated     = "pods.created"
	PodsDeleted     = "pods.deleted"

	// APIRequests is every request the apiserver served, by verb:
	// "api.requests.LIST" and so on, cumulative.
	APIRequests = "api.requests."
	// APIWatchEvents is every watch event the apiserver sent, by resource:
	// "api.watch_events.replicationControllers" and so on, cumulative.
	APIWatchEvents = "api.watch_events."
	// ManagerRequests is every request of the controller-manager
	// processes, by verb: their controllers' and their leader election's
	// (see ManagerComponents), cumulative.
	ManagerRequests = "cm.requests."
	// ManagerPurpose is the same requests by what they are for:
	// "cm.purpose.sync", "cm.purpose.leader_election" and so on (see
	// Purposes), cumulative.
	ManagerPurpose = "cm.purpose."
	// ManagerPodPosts counts pod creates sent by controller-managers,
	// whatever their answer; ManagerPodPostsOK only those that succeeded.
	ManagerPodPosts   = "cm.pod_posts"
	ManagerPodPostsOK = "cm.pod_posts_ok"
	// ManagerBytes counts the body bytes of the controller-manager
	// processes' requests (see ManagerComponents), as the apiserver read
	// and wrote them: request bodies sent plus response bodies and watch
	// events received, headers left out; cumulative.
	ManagerBytes = "cm.bytes"
	// ManagerWatchErrors counts the controller-managers' watches that the
	// apiserver ended with an ERROR event (410 Gone, mostly).
	ManagerWatchErrors = "cm.watch_errors"

	// Summed over every controller-manager process.
	ManagerGoroutines = "cm.goroutines"
	ManagerRSS        = "cm.rss_bytes"
	ManagerCPU        = "cm.cpu_seconds"
	ManagerSockets    = "cm.sockets"
	// ManagerSyncs counts the controller syncs the managers ran (one per
	// controller per pass, in either design), by their own counters.
	ManagerSyncs = "cm.syncs"
	// ManagerSyncsBy is the same syncs by what started them, as the
	// managers' own counters say: "cm.syncs_by.tick", "cm.syncs_by.pod"
	// and so on (pkg/controller's Sync* causes). A manager that does not
	// report causes (upstream's, the original v0.4) has none of these
	// series.
	ManagerSyncsBy = "cm.syncs_by."
	// ManagerCreates counts the pod creates the managers issued, by their
	// own counters: read in the same scrape as their syncs, so that the
	// two can be set against each other without the moments between a
	// scrape of the managers and one of the apiserver (seconds, on a busy
	// machine) coming between them.
	ManagerCreates = "cm.pod_creates"
	// ManagerTicks counts the 2014 managers' periodic passes over every
	// controller, by their own counters (today's report 0; a manager
	// without the counter, no series).
	ManagerTicks = "cm.ticks"
	// ManagerCreatesBy counts the pod creates of today's managers' syncs by
	// the cause of the sync that issued them: "cm.creates_by.pod" and so
	// on; only our modern manager reports them.
	ManagerCreatesBy = "cm.creates_by."

	// The apiserver process (with its embedded etcd, or the etcd member
	// the stack started for it).
	APIServerRSS = "apiserver.rss_bytes"
	APIServerCPU = "apiserver.cpu_seconds"

	// The hollow-node process (every hollow node is one process).
	HollowNodeCPU = "hollow.cpu_seconds"
	HollowNodeRSS = "hollow.rss_bytes"
	// HollowRelists counts the hollow nodes' lists of every pod after
	// their first: each one a watch that fell out of etcd's window or
	// broke; cumulative.
	HollowRelists = "hollow.relists"
	// HollowExpired counts the hollow nodes' pod watches that fell out of
	// etcd's window of 1000 events (410 Gone); cumulative.
	HollowExpired = "hollow.watch_expired"
	// HollowQueue is the hollow nodes' work waiting: watch events read and
	// not applied, and pods waiting for a worker to bind or start them.
	HollowQueue = "hollow.queue"
	// HollowWatchLag is how far (in etcd indexes) the hollow nodes' pod
	// watch was behind their own writes, at most, so far.
	HollowWatchLag = "hollow.watch_lag_max"

	// The laboratory's reader of pods, in a process of its own
	// (stack.ProcessLabReader): the reader of the write-ahead log or the
	// etcd learner, applying every write the members commit, and serving
	// its tail to the hollow nodes and the benchmark. The key keeps the
	// learner's name, which the published results use.
	LearnerCPU = "learner.cpu_seconds"
	// ReaderLagMax is, where the laboratory reads the member's write-ahead
	// log, the most seconds its view of the pods lagged the member's last
	// write of the log, at a poll that read entries, so far.
	ReaderLagMax = "reader.lag_max_seconds"

	// The measuring process itself (rcbench, or a test): its pod watch,
	// its scrapes and everything else it runs.
	SelfCPU = "self.cpu_seconds"
	// SelfRelists counts the lists of every pod the measuring side's pod
	// watch made after its first; cumulative.
	SelfRelists = "self.relists"
	// SelfResumes counts the measuring side's pod watches of today's
	// apiserver that the apiserver ended and it took up again from their
	// last version, without a list; cumulative.
	SelfResumes = "self.watch_resumes"
	// SelfExpired counts the measuring side's pod watches that fell out of
	// etcd's window (410 Gone); cumulative.
	SelfExpired = "self.watch_expired"
)

// The causes the managers count their syncs by, as pkg/controller's
// metrics name them (its Sync* constants), and how the laboratory reads
// them: a tick is the 2014 manager's periodic pass; an event is a change
// the manager was told of, by the 2014 watch of controllers or by today's
// informers; any other cause (a resync, a retry, a sync asked for later)
// is neither.
const (
	CauseTick = "tick"
)

// EventCause says whether a sync cause is an event the manager was told of.
func EventCause(cause string) bool {
	return cause == "watch" || cause == "controller" || cause == "pod"
}

// The processes a figure can belong to, as reports name them.
const (
	ProcessAPIServer  = "apiserver"
	ProcessManager    = "controller-manager"
	ProcessHollowNode = "hollow-node"
	ProcessSelf       = "rcbench"
	ProcessLabReader  = stack.ProcessLabReader
)

// Verbs are the apiserver's request verbs, as its metrics name them.
var Verbs = []string{"LIST", "GET", "POST", "PUT", "PATCH", "DELETE", "WATCH"}

// Intervals says how often each source is read.
type Intervals struct {
	// Pods is how often pod counts are recorded (the watch itself is live).
	Pods time.Duration
	// APIServer is how often the apiserver's /metrics is read.
	APIServer time.Duration
	// Managers is how often each controller-manager's /metrics and /proc
	// are read; short, to catch goroutine peaks.
	Managers time.Duration
}

// DefaultIntervals suit runs of a few seconds to a few minutes.
var DefaultIntervals = Intervals{Pods: 100 * time.Millisecond, APIServer: 250 * time.Millisecond, Managers: 25 * time.Millisecond}

// Sampler records a cluster's behaviour while a scenario runs.
type Sampler struct {
	Rec  *Recorder
	Pods *PodCounter

	cluster   Cluster
	intervals Intervals
	stopCh    chan struct{}
	wg        sync.WaitGroup

	mu       sync.Mutex
	lastErr  error
	baseline map[string]float64

	// readMu serialises the managers' reads (the periodic one and
	// SampleNow's); readings holds each manager's last, by its URL.
	readMu   sync.Mutex
	readings map[string]*managerReading
	// sockets counts the managers' sockets.
	sockets socketCounter
}

// New returns a sampler of st that follows the pods matching selector
// straight from the etcd the apiserver stores in (pkg/lab/etcdpods), so
// that the measuring costs the apiserver no watch, and reads pods through
// c where only a read shows their status. Start it before the scenario
// acts.
func New(c client.Interface, st *stack.Stack, selector labels.Selector, iv Intervals) *Sampler {
	return NewOf(c, OfStack(st), selector, iv)
}

// NewOf returns a sampler of any cluster (see Cluster); c reads pods
// where only a read shows their status, and may be nil elsewhere.
func NewOf(c client.Interface, cl Cluster, selector labels.Selector, iv Intervals) *Sampler {
	pods := NewPodCounter(c, selector).readingFrom(cl.Pods()).readingStatus(cl.StatusOnRead())
	if k, ok := cl.(kubelets); ok && cl.StatusOnRead() {
		pods.kubeletPort = k.KubeletPort()
	}
	return &Sampler{
		Rec:       NewRecorder(time.Now()),
		Pods:      pods,
		cluster:   cl,
		intervals: iv,
		stopCh:    make(chan struct{}),
	}
}

// Start begins sampling and returns once the pod counter has its first list.
func (s *Sampler) Start() error {
	s.wg.Add(4)
	// Labelled by job, for a profile of the laboratory's process.
	stack.GoAs(stack.PartPodReader, func() { defer s.wg.Done(); s.Pods.Run(s.stopCh) })
	stack.GoAs(stack.PartScrapes, func() { s.every(s.intervals.Pods, s.samplePods) })
	stack.GoAs(stack.PartScrapes, func() { s.every(s.intervals.APIServer, s.sampleAPIServer) })
	stack.GoAs(stack.PartScrapes, func() { s.every(s.intervals.Managers, s.sampleManagers) })
	err := wait.PollUntilContextTimeout(context.Background(), 20*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		return s.Pods.Synced(), nil
	})
	if err != nil {
		return fmt.Errorf("the pod watch did not list pods within 30 s")
	}
	return nil
}

// Stop ends sampling and waits for the samplers to finish.
func (s *Sampler) Stop() {
	close(s.stopCh)
	s.wg.Wait()
}

// SampleNow reads every source once, at once, so that a figure counted
// from this moment on starts from a fresh value instead of the last
// periodic sample, up to a whole interval old. It does nothing once the
// sampler has stopped.
func (s *Sampler) SampleNow() {
	select {
	case <-s.stopCh:
		return
	default:
	}
	now := time.Now()
	s.samplePods(now)
	s.sampleAPIServer(now)
	s.readManagers(now, true)
}

// Err returns the last scrape error, if any.
func (s *Sampler) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastErr
}

func (s *Sampler) every(d time.Duration, f func(time.Time)) {
	defer s.wg.Done()
	ticker := time.NewTicker(d)
	defer ticker.Stop()
	f(time.Now())
	for {
		select {
		case <-s.stopCh:
			f(time.Now())
			return
		case now := <-ticker.C:
			f(now)
		}
	}
}

func (s *Sampler) samplePods(now time.Time) {
	c := s.Pods.Counts()
	s.Rec.Add(PodsUnscheduled, now, float64(c.Unscheduled))
	s.Rec.Add(PodsWaiting, now, float64(c.Waiting))
	s.Rec.Add(PodsRunning, now, float64(c.Running))
	s.Rec.Add(PodsTerminated, now, float64(c.Terminated))
	s.Rec.Add(PodsActive, now, float64(c.Active))
	s.Rec.Add(PodsCreated, now, float64(c.Created))
	s.Rec.Add(PodsDeleted, now, float64(c.Deleted))
}

// relative records counter values relative to the first scrape, so every
// run starts at zero whatever the processes did before sampling began.
func (s *Sampler) relative(name string, now time.Time, v float64) {
	s.mu.Lock()
	if s.baseline == nil {
		s.baseline = map[string]float64{}
	}
	base, ok := s.baseline[name]
	if !ok {
		s.baseline[name] = v
		base = v
	}
	s.mu.Unlock()
	s.Rec.Add(name, now, v-base)
}

// managers records a count of the controller-managers' requests: from
// zero where the cluster counts from zero (Cluster.CountsFromZero), so a
// figure holds every request of their processes, their start-up LISTs
// and WATCHes included, and not only those after the sampler's first
// scrape, which a manager's start-up lands on either side of as the
// machine is busy or not; relative to the first scrape elsewhere.
func (s *Sampler) managers(name string, now time.Time, v float64) {
	if s.cluster.CountsFromZero() {
		s.Rec.Add(name, now, v)
		return
	}
	s.relative(name, now, v)
}

func (s *Sampler) fail(err error) {
	s.mu.Lock()
	s.lastErr = err
	s.mu.Unlock()
}

func (s *Sampler) sampleAPIServer(now time.Time) {
	// Without a meter (a control run of it) nothing counts the requests:
	// their series are not recorded, and the processes are still read.
	m := Metrics{}
	if url := s.cluster.RequestsURL(); url != "" {
		var err error
		if m, err = ScrapeWith(s.cluster.HTTPClient(), url); err != nil {
			s.fail(err)
			return
		}
		now = answered(now)
		s.recordRequests(now, m)
	}
	apiRSS := m.Sum("process_resident_memory_bytes", nil)
	apiCPU := m.Sum("process_cpu_seconds_total", nil)
	apiPid, etcdPids := s.cluster.APIServer()
	if apiPid > 0 {
		// Finer than the process's own counter, in 10 ms ticks.
		if cpu, ok := ProcessCPU(apiPid); ok {
			apiCPU = cpu
		}
		// The same figure its metrics give, also where an apiserver
		// has none (the original v0.4's, behind a meter).
		if _, rss, ok := ProcessUsage(apiPid); ok {
			apiRSS = rss
		}
	}
	if hollowPid, _ := s.cluster.HollowNode(); hollowPid > 0 {
		if _, rss, ok := ProcessUsage(hollowPid); ok {
			s.Rec.Add(HollowNodeRSS, now, rss)
		}
		if cpu, ok := ProcessCPU(hollowPid); ok {
			s.relative(HollowNodeCPU, now, cpu)
		}
	}
	for prefix, pid := range s.cluster.Others() {
		if _, rss, ok := ProcessUsage(pid); ok {
			s.Rec.Add(prefix+"rss_bytes", now, rss)
		}
		if cpu, ok := ProcessCPU(pid); ok {
			s.relative(prefix+"cpu_seconds", now, cpu)
		}
	}
	// An etcd member the stack started for the apiserver counts with it,
	// as the embedded one does.
	for _, pid := range etcdPids {
		if cpu, ok := ProcessCPU(pid); ok {
			apiCPU += cpu
		}
		if _, rss, ok := ProcessUsage(pid); ok {
			apiRSS += rss
		}
	}
	s.Rec.Add(APIServerRSS, now, apiRSS)
	s.relative(APIServerCPU, now, apiCPU)
	if cpu, ok := SelfCPUSeconds(); ok {
		s.relative(SelfCPU, now, cpu)
	}
	s.Rec.Add(SelfRelists, now, float64(s.Pods.Lists()-1))
	s.Rec.Add(SelfExpired, now, float64(s.Pods.Expired()))
	if r, ok := s.Pods.source.(interface{ Resumes() int }); ok {
		s.Rec.Add(SelfResumes, now, float64(r.Resumes()))
	}
	s.sampleHollowNode(now)
	s.sampleReader(now)
}

// recordRequests records the request counts of a scrape of RequestsURL.
func (s *Sampler) recordRequests(now time.Time, m Metrics) {
	for resource, n := range m.By("apiserver_watch_events_total", "resource", nil) {
		s.relative(APIWatchEvents+resource, now, n)
	}
	all := m.By("apiserver_request_total", "verb", nil)
	cm := CountManagerRequests(m)
	for _, verb := range Verbs {
		s.relative(APIRequests+verb, now, all[verb])
		s.managers(ManagerRequests+verb, now, cm.ByVerb[verb])
	}
	for _, p := range Purposes {
		s.managers(ManagerPurpose+p, now, cm.ByPurpose[p])
	}
	total, ok := 0.0, 0.0
	for _, component := range ManagerComponents {
		posts := m.By("apiserver_request_total", "code", map[string]string{"component": component, "verb": "POST", "resource": "pods"})
		for code, v := range posts {
			total += v
			if len(code) == 3 && code[0] == '2' {
				ok += v
			}
		}
	}
	s.managers(ManagerPodPosts, now, total)
	s.managers(ManagerPodPostsOK, now, ok)
	s.managers(ManagerBytes, now, ManagerBodyBytes(m))
	s.managers(ManagerWatchErrors, now, m.Sum("apiserver_watch_errors_total", map[string]string{"component": "controller-manager"}))
}

// sampleHollowNode reads the hollow nodes' own counters: their relists,
// the work they have waiting and how far their watch fell behind.
func (s *Sampler) sampleHollowNode(now time.Time) {
	_, url := s.cluster.HollowNode()
	if url == "" {
		return
	}
	m, err := ScrapeWith(s.cluster.HTTPClient(), url+"/metrics")
	if err != nil {
		return
	}
	s.Rec.Add(HollowRelists, now, math.Max(0, m.Sum("hollow_node_relists_total", nil)-1))
	s.Rec.Add(HollowExpired, now, m.Sum("hollow_node_watch_expired_total", nil))
	s.Rec.Add(HollowQueue, now, m.Sum("hollow_node_queue_depth", nil))
	s.Rec.Add(HollowWatchLag, now, m.Sum("hollow_node_watch_lag_max", nil))
}

// sampleReader reads the lag of the laboratory's reader of the
// write-ahead log, where the cluster has one.
func (s *Sampler) sampleReader(now time.Time) {
	r, ok := s.cluster.(walReader)
	if !ok || r.WALReaderURL() == "" {
		return
	}
	m, err := ScrapeWith(s.cluster.HTTPClient(), r.WALReaderURL()+"/metrics")
	if err != nil {
		return
	}
	s.Rec.Add(ReaderLagMax, now, m.Sum("walpods_read_lag_max_seconds", nil))
}

func (s *Sampler) sampleManagers(now time.Time) { s.readManagers(now, false) }

// managerReading is what one read of a manager gave.
type managerReading struct {
	at                                                   time.Time
	goroutines, rss, cpu, sockets, syncs, ticks, creates float64
	reportsTicks, reportsCreates                         bool
	syncsBy, createsBy                                   map[string]float64
}

// readManagers records the managers' figures, summed over them. A manager
// whose Endpoint.Every has not passed since its last read counts with
// that read, unless fresh asks for a new read of every one.
func (s *Sampler) readManagers(now time.Time, fresh bool) {
	s.readMu.Lock()
	defer s.readMu.Unlock()
	if s.readings == nil {
		s.readings = map[string]*managerReading{}
	}
	var sum managerReading
	sum.syncsBy, sum.createsBy = map[string]float64{}, map[string]float64{}
	seen := 0
	for _, ep := range s.cluster.Managers() {
		r := s.readings[ep.URL]
		if fresh || r == nil || ep.Every <= 0 || now.Sub(r.at) >= ep.Every {
			if r = s.readManager(ep); r == nil {
				// A manager being restarted is not an error worth reporting.
				delete(s.readings, ep.URL)
				continue
			}
			r.at = now
			s.readings[ep.URL] = r
		}
		seen++
		sum.goroutines += r.goroutines
		sum.rss += r.rss
		sum.cpu += r.cpu
		sum.sockets += r.sockets
		sum.syncs += r.syncs
		sum.ticks += r.ticks
		sum.creates += r.creates
		sum.reportsTicks = sum.reportsTicks || r.reportsTicks
		sum.reportsCreates = sum.reportsCreates || r.reportsCreates
		for cause, n := range r.syncsBy {
			sum.syncsBy[cause] += n
		}
		for cause, n := range r.createsBy {
			sum.createsBy[cause] += n
		}
	}
	if seen == 0 {
		return
	}
	now = answered(now)
	s.Rec.Add(ManagerGoroutines, now, sum.goroutines)
	s.Rec.Add(ManagerRSS, now, sum.rss)
	s.Rec.Add(ManagerCPU, now, sum.cpu)
	s.Rec.Add(ManagerSockets, now, sum.sockets)
	s.Rec.Add(ManagerSyncs, now, sum.syncs)
	for cause, n := range sum.syncsBy {
		s.Rec.Add(ManagerSyncsBy+cause, now, n)
	}
	for cause, n := range sum.createsBy {
		s.Rec.Add(ManagerCreatesBy+cause, now, n)
	}
	if sum.reportsTicks {
		s.Rec.Add(ManagerTicks, now, sum.ticks)
	}
	if sum.reportsCreates {
		s.Rec.Add(ManagerCreates, now, sum.creates)
	}
}

// readManager reads one manager's metrics and /proc; nil if its metrics
// do not answer.
func (s *Sampler) readManager(ep Endpoint) *managerReading {
	m, err := ScrapeWith(s.cluster.HTTPClient(), ep.URL+"/metrics")
	if err != nil {
		return nil
	}
	r := &managerReading{syncsBy: map[string]float64{}, createsBy: map[string]float64{}}
	r.goroutines = m.Sum("go_goroutines", nil)
	r.syncs = m.Sum("replication_manager_syncs_total", nil)
	for cause, n := range m.By("replication_manager_syncs_total", "cause", nil) {
		if cause != "" {
			r.syncsBy[cause] += n
		}
	}
	for cause, n := range m.By("replication_manager_sync_pod_creates_total", "cause", nil) {
		if cause != "" {
			r.createsBy[cause] += n
		}
	}
	if _, ok := m["replication_manager_pod_creates_total"]; ok {
		r.creates = m.Sum("replication_manager_pod_creates_total", nil)
		r.reportsCreates = true
	}
	if _, ok := m["replication_manager_ticks_total"]; ok {
		r.ticks = m.Sum("replication_manager_ticks_total", nil)
		r.reportsTicks = true
	}
	r.rss = m.Sum("process_resident_memory_bytes", nil)
	pid := ep.Pid
	// The process's own CPU counter is read in 10 ms ticks; the
	// scheduler's is finer, where /proc has it.
	if c, ok := ProcessCPU(pid); pid > 0 && ok {
		r.cpu = c
	} else {
		r.cpu = m.Sum("process_cpu_seconds_total", nil)
	}
	if pid > 0 {
		if n := s.sockets.count(pid, time.Now()); n >= 0 {
			r.sockets = float64(n)
		}
	}
	return r
}

// answered dates a scrape by the time its answer came, not the time it was
// asked for: on a busy machine a scrape can take a second or more, and a
// counter read after a burst of requests but dated before a mark that
// preceded them puts the burst before the mark (a scenario's "deletes
// after the recreation" read 0 so). A cumulative value is then never
// larger than it was at its date.
func answered(asked time.Time) time.Time {
	if now := time.Now(); now.After(asked) {
		return now
	}
	return asked
}

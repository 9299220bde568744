package faults

// The switch reaches the apiserver from outside: Wrap puts a decorator
// around each resource's storage, so the 2014 handlers stay as v0.4 wrote
// them and an injected failure is refused before storage is touched,
// leaving no partial write behind.

import (
	"sync"
	"time"

	"github.com/golang/glog"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// Kinds of injected fault, as counted in apiserver_injected_faults_total.
const (
	kindFail       = "fail"
	kindLatency    = "latency"
	kindCloseWatch = "close_watch"
)

// Wrap returns storage with every resource behind the switch, and makes
// the served resources the only ones a rule may name. The faults injected
// are counted in reg as apiserver_injected_faults_total.
func (f *Faults) Wrap(storage map[string]apiserver.RESTStorage, reg prometheus.Registerer) map[string]apiserver.RESTStorage {
	injected := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "apiserver_injected_faults_total",
		Help: "Faults injected by the fault switch, by verb, resource and kind (fail, latency, close_watch).",
	}, []string{"verb", "resource", "kind"})
	if err := reg.Register(injected); err != nil {
		glog.Errorf("registering the fault counter: %v", err)
	}
	wrapped := make(map[string]apiserver.RESTStorage, len(storage))
	names := make([]string, 0, len(storage))
	for name, inner := range storage {
		s := &faultyStorage{inner: inner, resource: name, faults: f, injected: injected}
		if w, ok := inner.(apiserver.ResourceWatcher); ok {
			wrapped[name] = &faultyWatcher{faultyStorage: s, watcher: w}
		} else {
			wrapped[name] = s
		}
		names = append(names, name)
	}
	f.SetKnownResources(names...)
	return wrapped
}

// faultyStorage is one resource's storage behind the switch.
type faultyStorage struct {
	inner    apiserver.RESTStorage
	resource string
	faults   *Faults
	injected *prometheus.CounterVec
}

// fail returns the injected error for one call of verb, if the rules say
// it fails.
func (s *faultyStorage) fail(verb string) error {
	code, fail := s.faults.Fail(verb, s.resource)
	if !fail {
		return nil
	}
	s.injected.WithLabelValues(verb, s.resource, kindFail).Inc()
	glog.V(2).Infof("injected %d on %s %s", code, verb, s.resource)
	return NewError(code, verb, s.resource)
}

// delay sleeps the injected latency of verb, less if ctx ends first.
func (s *faultyStorage) delay(ctx api.Context, verb string) {
	d := s.faults.Latency(verb, s.resource)
	if d <= 0 {
		return
	}
	s.injected.WithLabelValues(verb, s.resource, kindLatency).Inc()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
	}
}

func (s *faultyStorage) New() api.Object { return s.inner.New() }

func (s *faultyStorage) List(ctx api.Context, label, field labels.Selector) (api.Object, error) {
	if err := s.fail("LIST"); err != nil {
		return nil, err
	}
	s.delay(ctx, "LIST")
	return s.inner.List(ctx, label, field)
}

func (s *faultyStorage) Get(ctx api.Context, id string) (api.Object, error) {
	if err := s.fail("GET"); err != nil {
		return nil, err
	}
	s.delay(ctx, "GET")
	return s.inner.Get(ctx, id)
}

func (s *faultyStorage) Create(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	return s.write(ctx, "POST", func() (<-chan api.Object, error) { return s.inner.Create(ctx, obj) })
}

func (s *faultyStorage) Update(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	return s.write(ctx, "PUT", func() (<-chan api.Object, error) { return s.inner.Update(ctx, obj) })
}

func (s *faultyStorage) Delete(ctx api.Context, id string) (<-chan api.Object, error) {
	return s.write(ctx, "DELETE", func() (<-chan api.Object, error) { return s.inner.Delete(ctx, id) })
}

// write refuses an injected failure at once; an injected latency becomes
// part of the asynchronous work, so a slow write answers 202 as a slow
// store would.
func (s *faultyStorage) write(ctx api.Context, verb string, call func() (<-chan api.Object, error)) (<-chan api.Object, error) {
	if err := s.fail(verb); err != nil {
		return nil, err
	}
	if s.faults.Latency(verb, s.resource) <= 0 {
		return call()
	}
	return apiserver.MakeAsync(func() (api.Object, error) {
		s.delay(ctx, verb)
		out, err := call()
		if err != nil {
			return nil, err
		}
		return <-out, nil
	}), nil
}

// faultyWatcher is a watchable resource's storage behind the switch.
type faultyWatcher struct {
	*faultyStorage
	watcher apiserver.ResourceWatcher
}

// Watch fails or delays like any other call, and the stream it returns
// ends whenever the rules' CloseWatchesEvery comes round.
func (s *faultyWatcher) Watch(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	if err := s.fail("WATCH"); err != nil {
		return nil, err
	}
	s.delay(ctx, "WATCH")
	inner, err := s.watcher.Watch(ctx, label, field, resourceVersion)
	if err != nil || inner == nil {
		return inner, err
	}
	w := &closingWatch{
		inner:  inner,
		result: make(chan watch.Event),
		stopCh: make(chan struct{}),
		closed: func() { s.injected.WithLabelValues("WATCH", s.resource, kindCloseWatch).Inc() },
	}
	go w.run(s.faults)
	return w, nil
}

// closingWatch passes on the events of a storage watch until the switch
// says to close it: then it stops the storage watch and closes its result
// channel, as if the storage had ended the stream.
type closingWatch struct {
	inner  watch.Interface
	result chan watch.Event
	stopCh chan struct{}
	once   sync.Once
	closed func()
}

func (w *closingWatch) ResultChan() <-chan watch.Event { return w.result }

func (w *closingWatch) Stop() {
	w.once.Do(func() { close(w.stopCh) })
}

func (w *closingWatch) run(f *Faults) {
	defer close(w.result)
	defer w.inner.Stop()
	for {
		wait, changed := f.WatchClose()
		var fire <-chan time.Time
		var timer *time.Timer
		if wait > 0 {
			timer = time.NewTimer(wait)
			fire = timer.C
		}
		end := w.forward(fire, changed)
		if timer != nil {
			timer.Stop()
		}
		if end {
			return
		}
	}
}

// forward passes events on until the rules change (false: read them
// again) or the stream ends (true).
func (w *closingWatch) forward(fire <-chan time.Time, changed <-chan struct{}) bool {
	for {
		select {
		case <-w.stopCh:
			return true
		case <-changed:
			return false
		case <-fire:
			w.closed()
			glog.V(2).Infof("fault switch closed a watch")
			return true
		case event, ok := <-w.inner.ResultChan():
			if !ok {
				return true
			}
			select {
			case w.result <- event:
			case <-w.stopCh:
				return true
			}
		}
	}
}

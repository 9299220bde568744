package adapter

// Upstream's ReplicationManager asks its clientset for six things: a GET
// of a replication controller (before adopting), a status write, pod
// creates and deletes, strategic-merge patches of a pod's ownerReferences
// (adopt, release), and events. Each call here converts its v1 object
// with pkg/modern/conversion, makes the one 2014 request that does the
// same, and converts the answer and its error back, so that upstream's
// checks (IsNotFound, IsConflict, IsInvalid) read them as a v1
// apiserver's. Lists and watches of both resources are served too; the
// controller's own informers come from pkg/modern/informers, as our
// modern manager's do.

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/modern/conversion"
	"github.com/kube-rewind/kube-rewind/pkg/modern/informers"
	kwatch "github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/prometheus/client_golang/prometheus"
	v1 "k8s.io/api/core/v1"
	k8serrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	appsv1client "k8s.io/client-go/kubernetes/typed/apps/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
)

// Clientset is the kubernetes.Interface handed to upstream's
// ReplicationManager.
//
// Ours: only CoreV1's Pods, ReplicationControllers and Events are served.
// Every other group and resource is left nil, and a call to one panics:
// the replication manager makes none, and a panic names the call where an
// error could be retried for ever unnoticed.
type Clientset struct {
	kubernetes.Interface
	core coreV1
}

// New returns a clientset making its requests through c and counting
// them in m.
func New(c client.Interface, m *Metrics) *Clientset {
	return &Clientset{core: coreV1{c: c, m: m}}
}

// CoreV1 serves pods, replication controllers and events.
func (cs *Clientset) CoreV1() corev1client.CoreV1Interface { return &cs.core }

// AppsV1 is nil. Upstream's ReplicationManager wraps the clientset in
// one whose AppsV1().ReplicaSets(ns) is CoreV1().ReplicationControllers(ns)
// under a conversion to ReplicaSets; it keeps this AppsV1 only to embed.
func (cs *Clientset) AppsV1() appsv1client.AppsV1Interface { return nil }

type coreV1 struct {
	corev1client.CoreV1Interface
	c client.Interface
	m *Metrics
}

func (c *coreV1) Pods(namespace string) corev1client.PodInterface {
	return &pods{ns: namespace, c: c.c, m: c.m}
}

func (c *coreV1) ReplicationControllers(namespace string) corev1client.ReplicationControllerInterface {
	return &replicationControllers{ns: namespace, c: c.c, m: c.m}
}

func (c *coreV1) Events(namespace string) corev1client.EventInterface {
	return &events{m: c.m}
}

// Metrics counts what the adapter was asked for and what it could not
// pass on. The replication_manager_* series carry the names our managers'
// counters have (pkg/controller/metrics.go), counted here because
// upstream's manager keeps no such counters: the benchmark reads them
// from every manager alike.
type Metrics struct {
	calls        *prometheus.CounterVec
	events       *prometheus.CounterVec
	podCreates   prometheus.Counter
	createErrors prometheus.Counter
	podDeletes   prometheus.Counter
	deleteErrors prometheus.Counter
	statusWrites prometheus.Counter
	patchRetries prometheus.Counter
}

// NewMetrics registers the adapter's counters with r.
func NewMetrics(r prometheus.Registerer) *Metrics {
	counter := func(name, help string) prometheus.Counter {
		return prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help + " Counted at the adapter: upstream has no such counter."})
	}
	m := &Metrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "upstream_adapter_calls_total",
			Help: "Clientset calls of upstream's controller, by v1 verb and resource, whatever requests they cost here.",
		}, []string{"verb", "resource"}),
		events: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "upstream_adapter_events_total",
			Help: "Events upstream's recorder wrote (create) or updated (patch), by reason; our API has no events, so none reached the apiserver.",
		}, []string{"write", "reason"}),
		podCreates:   counter("replication_manager_pod_creates_total", "Pod creates issued to the apiserver."),
		createErrors: counter("replication_manager_pod_create_errors_total", "Pod creates that failed."),
		podDeletes:   counter("replication_manager_pod_deletes_total", "Pod deletes issued to the apiserver."),
		deleteErrors: counter("replication_manager_pod_delete_errors_total", "Pod deletes that failed."),
		statusWrites: counter("replication_manager_status_writes_total", "Replication controller status writes issued (PUTs)."),
		patchRetries: counter("upstream_adapter_patch_conflicts_total", "Emulated patches whose PUT met a newer object and were applied again."),
	}
	r.MustRegister(m.calls, m.events, m.podCreates, m.createErrors, m.podDeletes, m.deleteErrors, m.statusWrites, m.patchRetries)
	return m
}

func (m *Metrics) call(verb, resource string) { m.calls.WithLabelValues(verb, resource).Inc() }

// selectors turns a v1 list's label and field selectors into ours. Our
// selectors are 2014's: k=v and k!=v, joined by commas.
//
// Ours: the set-based forms (in, notin, exists) v1 added are refused with
// a 400; nothing in this binary sends them.
func selectors(opts metav1.ListOptions) (label, fields labels.Selector, err error) {
	if label, err = labels.ParseSelector(opts.LabelSelector); err != nil {
		return nil, nil, k8serrors.NewBadRequest(fmt.Sprintf("label selector %q: %v", opts.LabelSelector, err))
	}
	if fields, err = labels.ParseSelector(opts.FieldSelector); err != nil {
		return nil, nil, k8serrors.NewBadRequest(fmt.Sprintf("field selector %q: %v", opts.FieldSelector, err))
	}
	return label, fields, nil
}

// watchOf relays one of our watches as a watch of v1 objects, with the
// converter the informers use.
func watchOf(ctx context.Context, opts metav1.ListOptions, open informers.WatchFunc, convert informers.ConvertFunc) (watch.Interface, error) {
	return informers.NewListWatch(nil, open, convert).WatchWithContext(ctx, opts)
}

// refuseDeleteOptions turns away what a DELETE here cannot honour.
//
// Ours: our apiserver deletes at once. There is no deletionTimestamp and
// no grace period, so a pod vanishes from every watch the moment it is
// deleted (upstream's manager counts a terminating pod as gone, so it
// acts the same); there are no finalizers, so every propagation policy
// amounts to deleting the object alone. Preconditions cannot be checked
// atomically and are refused; upstream's manager sends none.
func refuseDeleteOptions(opts metav1.DeleteOptions) error {
	if opts.Preconditions != nil {
		return k8serrors.NewBadRequest("delete preconditions are not supported by the v1beta1 apiserver behind this adapter")
	}
	return nil
}

// patched applies a strategic-merge patch to current, a v1 object, as a
// v1 apiserver applies it to the object it stores, and returns the
// result in a new object of current's type.
//
// Ours: the v1beta1 API has no PATCH. The adapter reads the object, patches
// it here (k8s.io/apimachinery's strategicpatch, with the v1 type's merge
// keys: ownerReferences merge by uid) and writes it back with a PUT at the
// resourceVersion it read. Only strategic-merge patches are emulated; a
// JSON or merge patch is refused with a 415.
func patched[T runtime.Object](current T, pt types.PatchType, data []byte, schema T) (T, error) {
	var zero T
	if pt != types.StrategicMergePatchType {
		return zero, &k8serrors.StatusError{ErrStatus: metav1.Status{
			Status: metav1.StatusFailure, Code: 415, Reason: metav1.StatusReasonUnsupportedMediaType,
			Message: fmt.Sprintf("%s patches are not emulated; only %s", pt, types.StrategicMergePatchType),
		}}
	}
	original, err := json.Marshal(current)
	if err != nil {
		return zero, err
	}
	merged, err := strategicpatch.StrategicMergePatch(original, data, schema)
	if err != nil {
		return zero, k8serrors.NewBadRequest(err.Error())
	}
	out := schema.DeepCopyObject().(T)
	if err := json.Unmarshal(merged, out); err != nil {
		return zero, k8serrors.NewBadRequest(err.Error())
	}
	return out, nil
}

// maxPatchAttempts bounds the read-patch-write rounds of one emulated
// patch.
//
// Ours: a v1 apiserver retries a patch inside its storage update until it
// lands, so a patch without a resourceVersion never fails with a
// conflict; here each round is a GET and a PUT over the network, and
// after this many conflicts the conflict is returned (upstream's manager
// then retries the sync with backoff).
const maxPatchAttempts = 5

// emulatePatch reads an object, patches it and writes it back at the
// version read, again after a conflict. A patch that changes
// metadata.uid, as upstream's adoption patch does when the object was
// deleted and recreated under the same name since the manager's cache saw
// it, is refused as a v1 apiserver refuses it: uid is immutable (422).
func emulatePatch[T interface {
	runtime.Object
	metav1.Object
}](m *Metrics, kind, name string, pt types.PatchType, data []byte, subresources []string, schema T,
	get func() (T, error), put func(T) (T, error)) (T, error) {
	var zero T
	if len(subresources) > 0 {
		return zero, k8serrors.NewBadRequest(fmt.Sprintf("patching the %v subresource of %s %s is not supported", subresources, kind, name))
	}
	for attempt := 1; ; attempt++ {
		current, err := get()
		if err != nil {
			return zero, err
		}
		next, err := patched(current, pt, data, schema)
		if err != nil {
			return zero, err
		}
		if next.GetUID() != current.GetUID() {
			return zero, k8serrors.NewInvalid(schema.GetObjectKind().GroupVersionKind().GroupKind(), name, field.ErrorList{
				field.Invalid(field.NewPath("metadata", "uid"), next.GetUID(), "field is immutable")})
		}
		next.SetResourceVersion(current.GetResourceVersion())
		out, err := put(next)
		if !k8serrors.IsConflict(err) || attempt == maxPatchAttempts {
			return out, err
		}
		m.patchRetries.Inc()
	}
}

// pods serves one namespace's pods.
//
// Ours: only the calls below are served. Any other of PodInterface (Apply,
// Bind, Evict, GetLogs, DeleteCollection, ...) reaches the nil interface
// embedded here and panics; the replication manager makes none.
type pods struct {
	corev1client.PodInterface
	ns string
	c  client.Interface
	m  *Metrics
}

func (p *pods) ctx(ctx context.Context) api.Context { return api.WithNamespace(ctx, p.ns) }

func convertPod(obj api.Object) (runtime.Object, bool) {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return nil, false
	}
	return conversion.PodToV1(pod), true
}

// Create creates a pod.
//
// Ours: upstream names its pods from generateName (the controller's name,
// a dash and five random characters); the v1 generateName is dropped and
// our apiserver names the pod with a UUID, as it named the 2014
// manager's and our modern port's pods. The names are 31 characters
// longer than upstream's, in every pod's requests and events alike.
func (p *pods) Create(ctx context.Context, pod *v1.Pod, opts metav1.CreateOptions) (*v1.Pod, error) {
	p.m.call("create", "pods")
	p.m.podCreates.Inc()
	in := conversion.PodFromV1(pod)
	if in.Namespace == "" {
		in.Namespace = p.ns
	}
	out, err := p.c.CreatePod(p.ctx(ctx), in)
	if err != nil {
		p.m.createErrors.Inc()
		return nil, conversion.Error(err)
	}
	return conversion.PodToV1(out), nil
}

// Update writes a pod back at its resourceVersion.
func (p *pods) Update(ctx context.Context, pod *v1.Pod, opts metav1.UpdateOptions) (*v1.Pod, error) {
	p.m.call("update", "pods")
	return p.update(ctx, pod)
}

// UpdateStatus writes a pod's status.
//
// Ours: no /status subresource; the whole pod goes back with a PUT, so a
// spec change in the object sent is written too, where a v1 apiserver
// would keep the stored spec.
func (p *pods) UpdateStatus(ctx context.Context, pod *v1.Pod, opts metav1.UpdateOptions) (*v1.Pod, error) {
	p.m.call("update-status", "pods")
	return p.update(ctx, pod)
}

func (p *pods) update(ctx context.Context, pod *v1.Pod) (*v1.Pod, error) {
	out, err := p.c.UpdatePod(p.ctx(ctx), conversion.PodFromV1(pod))
	if err != nil {
		return nil, conversion.Error(err)
	}
	return conversion.PodToV1(out), nil
}

// Delete deletes a pod (see refuseDeleteOptions).
func (p *pods) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	p.m.call("delete", "pods")
	if err := refuseDeleteOptions(opts); err != nil {
		return err
	}
	p.m.podDeletes.Inc()
	if err := p.c.DeletePod(p.ctx(ctx), name); err != nil {
		p.m.deleteErrors.Inc()
		return conversion.Error(err)
	}
	return nil
}

// Get reads a pod.
func (p *pods) Get(ctx context.Context, name string, opts metav1.GetOptions) (*v1.Pod, error) {
	p.m.call("get", "pods")
	return p.get(ctx, name)
}

func (p *pods) get(ctx context.Context, name string) (*v1.Pod, error) {
	pod, err := p.c.GetPod(p.ctx(ctx), name)
	if err != nil {
		return nil, conversion.Error(err)
	}
	return conversion.PodToV1(pod), nil
}

// List lists the namespace's pods.
//
// Ours: a 2014 LIST always reads etcd afresh; resourceVersion, limit and
// continue are ignored, and the whole list comes back at once.
func (p *pods) List(ctx context.Context, opts metav1.ListOptions) (*v1.PodList, error) {
	p.m.call("list", "pods")
	label, _, err := selectors(opts)
	if err != nil {
		return nil, err
	}
	list, err := p.c.ListPods(p.ctx(ctx), label)
	if err != nil {
		return nil, conversion.Error(err)
	}
	out := &v1.PodList{Items: make([]v1.Pod, len(list.Items))}
	for i := range list.Items {
		out.Items[i] = *conversion.PodToV1(&list.Items[i])
	}
	out.ResourceVersion = conversion.ResourceVersionToV1(list.ResourceVersion)
	return out, nil
}

// Watch watches the namespace's pods from opts.ResourceVersion.
//
// Ours: the 2014 watch has no bookmarks, no initial events and no server
// timeout: allowWatchBookmarks, sendInitialEvents and timeoutSeconds are
// ignored, and the watch lasts until either side ends it.
func (p *pods) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	p.m.call("watch", "pods")
	label, fields, err := selectors(opts)
	if err != nil {
		return nil, err
	}
	return watchOf(ctx, opts, func(ctx api.Context, rv uint64) (kwatch.Interface, error) {
		return p.c.WatchPods(p.ctx(ctx), label, fields, rv)
	}, convertPod)
}

// Patch applies a strategic-merge patch to a pod (see emulatePatch):
// upstream adopts and releases pods with one. Each costs a GET and a PUT
// here, where a v1 apiserver serves one PATCH.
func (p *pods) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*v1.Pod, error) {
	p.m.call("patch", "pods")
	return emulatePatch(p.m, "pod", name, pt, data, subresources, &v1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}},
		func() (*v1.Pod, error) { return p.get(ctx, name) },
		func(pod *v1.Pod) (*v1.Pod, error) { return p.update(ctx, pod) })
}

// replicationControllers serves one namespace's replication
// controllers; as for pods, any call not below panics (GetScale, Apply,
// ...).
type replicationControllers struct {
	corev1client.ReplicationControllerInterface
	ns string
	c  client.Interface
	m  *Metrics
}

func (r *replicationControllers) ctx(ctx context.Context) api.Context {
	return api.WithNamespace(ctx, r.ns)
}

func convertRC(obj api.Object) (runtime.Object, bool) {
	rc, ok := obj.(*api.ReplicationController)
	if !ok {
		return nil, false
	}
	return conversion.ReplicationControllerToV1(rc), true
}

func (r *replicationControllers) result(rc *api.ReplicationController, err error) (*v1.ReplicationController, error) {
	if err != nil {
		return nil, conversion.Error(err)
	}
	return conversion.ReplicationControllerToV1(rc), nil
}

// Create creates a replication controller.
func (r *replicationControllers) Create(ctx context.Context, rc *v1.ReplicationController, opts metav1.CreateOptions) (*v1.ReplicationController, error) {
	r.m.call("create", "replicationcontrollers")
	in := conversion.ReplicationControllerFromV1(rc)
	if in.Namespace == "" {
		in.Namespace = r.ns
	}
	return r.result(r.c.CreateReplicationController(r.ctx(ctx), in))
}

// Update writes a replication controller back at its resourceVersion.
func (r *replicationControllers) Update(ctx context.Context, rc *v1.ReplicationController, opts metav1.UpdateOptions) (*v1.ReplicationController, error) {
	r.m.call("update", "replicationcontrollers")
	return r.result(r.c.UpdateReplicationController(r.ctx(ctx), conversion.ReplicationControllerFromV1(rc)))
}

// UpdateStatus writes a replication controller's status; upstream's
// manager does after a sync whose count differs from the status read.
//
// Ours: no /status subresource; the whole controller goes back with a PUT
// at its resourceVersion, as our modern port writes it (its desiredState
// travels verbatim in the conversion's annotation, so the spec written is
// the spec read, and the generation stays). A conflict comes back as a
// 409, which upstream answers with a GET and one more write.
//
// Ours: status.replicas reaches upstream as our apiserver counts it on
// every read and watch event (REST.fillCurrentState in
// pkg/registry/controller, as v0.4 did): every pod the selector matches,
// whatever its state or owner. Upstream compares it with its own count of
// the active pods it owns and writes when they differ, so wherever the two
// counts part (controllers with overlapping selectors, pods that ended but
// are not yet deleted, a watch event racing the pod cache) it writes
// status again after every sync; a v1 apiserver returns the count last
// written. Our port leaves replicas out of that comparison for this reason
// (updateReplicationControllerStatus in pkg/controller).
func (r *replicationControllers) UpdateStatus(ctx context.Context, rc *v1.ReplicationController, opts metav1.UpdateOptions) (*v1.ReplicationController, error) {
	r.m.call("update-status", "replicationcontrollers")
	r.m.statusWrites.Inc()
	return r.result(r.c.UpdateReplicationController(r.ctx(ctx), conversion.ReplicationControllerFromV1(rc)))
}

// Delete deletes a replication controller; its pods stay until the
// garbage collector stand-in deletes them (see refuseDeleteOptions).
func (r *replicationControllers) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	r.m.call("delete", "replicationcontrollers")
	if err := refuseDeleteOptions(opts); err != nil {
		return err
	}
	return conversion.Error(r.c.DeleteReplicationController(r.ctx(ctx), name))
}

// Get reads a replication controller; upstream's manager does before its
// first adoption in a sync, to be sure the controller is not being
// deleted.
func (r *replicationControllers) Get(ctx context.Context, name string, opts metav1.GetOptions) (*v1.ReplicationController, error) {
	r.m.call("get", "replicationcontrollers")
	return r.result(r.c.GetReplicationController(r.ctx(ctx), name))
}

// List lists the namespace's replication controllers (see pods.List).
func (r *replicationControllers) List(ctx context.Context, opts metav1.ListOptions) (*v1.ReplicationControllerList, error) {
	r.m.call("list", "replicationcontrollers")
	label, _, err := selectors(opts)
	if err != nil {
		return nil, err
	}
	list, err := r.c.ListReplicationControllers(r.ctx(ctx), label)
	if err != nil {
		return nil, conversion.Error(err)
	}
	out := &v1.ReplicationControllerList{Items: make([]v1.ReplicationController, len(list.Items))}
	for i := range list.Items {
		out.Items[i] = *conversion.ReplicationControllerToV1(&list.Items[i])
	}
	out.ResourceVersion = conversion.ResourceVersionToV1(list.ResourceVersion)
	return out, nil
}

// Watch watches the namespace's replication controllers (see pods.Watch).
func (r *replicationControllers) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	r.m.call("watch", "replicationcontrollers")
	label, fields, err := selectors(opts)
	if err != nil {
		return nil, err
	}
	return watchOf(ctx, opts, func(ctx api.Context, rv uint64) (kwatch.Interface, error) {
		return r.c.WatchReplicationControllers(r.ctx(ctx), label, fields, rv)
	}, convertRC)
}

// Patch applies a strategic-merge patch to a replication controller (see
// emulatePatch).
func (r *replicationControllers) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*v1.ReplicationController, error) {
	r.m.call("patch", "replicationcontrollers")
	return emulatePatch(r.m, "replicationController", name, pt, data, subresources,
		&v1.ReplicationController{TypeMeta: metav1.TypeMeta{Kind: "ReplicationController", APIVersion: "v1"}},
		func() (*v1.ReplicationController, error) {
			return r.result(r.c.GetReplicationController(r.ctx(ctx), name))
		},
		func(rc *v1.ReplicationController) (*v1.ReplicationController, error) {
			return r.result(r.c.UpdateReplicationController(r.ctx(ctx), conversion.ReplicationControllerFromV1(rc)))
		})
}

// events takes the events upstream's recorder writes.
//
// Ours: the 2014 API has no events. They are counted by reason
// (upstream_adapter_events_total) and dropped: none reaches the
// apiserver, so the benchmark's request counts leave out the POST of each
// new event and the PATCH of each repeated one that kube-controller-manager
// would send, and those requests take no token of the client's rate limit
// (in kube-controller-manager they share the manager's client and its 20
// requests a second). The recorder's own correlator still aggregates and
// rate-limits them, and the log shows each one at -v=3.
type events struct {
	corev1client.EventInterface
	m *Metrics
	n atomic.Uint64
}

// CreateWithEventNamespace counts a new event and returns it as stored.
func (e *events) CreateWithEventNamespace(event *v1.Event) (*v1.Event, error) {
	e.m.call("create", "events")
	e.m.events.WithLabelValues("create", event.Reason).Inc()
	out := event.DeepCopy()
	out.ResourceVersion = strconv.FormatUint(e.n.Add(1), 10)
	return out, nil
}

// PatchWithEventNamespace counts a repeated event (its count raised).
func (e *events) PatchWithEventNamespace(event *v1.Event, data []byte) (*v1.Event, error) {
	e.m.call("patch", "events")
	e.m.events.WithLabelValues("patch", event.Reason).Inc()
	return event, nil
}

// UpdateWithEventNamespace counts an updated event.
func (e *events) UpdateWithEventNamespace(event *v1.Event) (*v1.Event, error) {
	e.m.call("update", "events")
	e.m.events.WithLabelValues("update", event.Reason).Inc()
	return event, nil
}

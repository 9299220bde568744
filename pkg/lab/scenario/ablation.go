package scenario

import (
	"fmt"
	"strings"
)

// Ablation is one thing set differently than in the fair fight's parity,
// for one control run of a parity variant, of today's stack or of v0.4's
// own binaries: "<variant>-with-<Key>". Set beside the parity run at the
// same size, it prices that one thing. The handicaps put back one the
// laboratory gave today's side before parity (stack-today-unthrottled
// still has them all), so their prices lead from today's stack at parity
// to today's stack as the laboratory ran it; the others change how
// today's stack is built, to name parts of the gap that remains between
// the two stacks at parity, or how v0.4's binaries are driven, to test why
// they are slower than our port.
//
// Each states what it predicts, before any run: the ablated run's time to
// all running over the parity run's, between Low and High. The benchmark
// judges each as it judges a reason (a prediction that misses is NOT
// EXPLAINED), and the waterfall of the report is built from their prices.
type Ablation struct {
	// Key names the control run, after "-with-".
	Key string
	// On is the launcher of the parity variants the ablation applies
	// to: today's stack (nil stands for it), or the original v0.4
	// binaries.
	On *Launcher
	// Says what the run sets, in a few words for the page's rows.
	Says string
	// Handicap says the ablation puts back what the laboratory gave
	// today's side before parity.
	Handicap bool
	// Why is the reason for the prediction.
	Why string
	// Low and High bound the ablated run's time to all running over the
	// parity run's, both included.
	Low, High float64
}

// The ablations' keys, which the launchers read (Variant.Ablation).
const (
	AblateMeter        = "meter"
	AblateKWOKWriters  = "kwok-default-writers"
	AblateLimits       = "priority-and-fairness"
	AblateSparseNodes  = "sparse-nodes"
	AblateLabWatch     = "lab-watch"
	AblateDirectBinder = "direct-binding"
	AblateSerialBinds  = "serial-binding"
)

// AblationMaxReplicas is the largest size a sweep runs the ablations at:
// each prices one thing beside its parity run, and at 1 000 pods three
// runs of every one fit the fair fight's page in its hour, where at
// 10 000 they would not. The parity runs themselves go further.
const AblationMaxReplicas = 1000

// SparsePodsPerNode is the density of the sparse-nodes ablation: ten
// times the nodes of parity.
const SparsePodsPerNode = ParityPodsPerNode / 10

// Ablations lists every ablation, handicaps first, in the order the
// waterfall stacks them; those of v0.4's binaries come last, and a key may
// come twice, once for each launcher.
var Ablations = []Ablation{{
	Key: AblateMeter, Says: "the laboratory's meter in front of kube-apiserver", Handicap: true,
	Why: "every client's requests go through one more TLS hop and proxy inside the laboratory's process, on the same two " +
		"cores; a control run before parity measured it at about a sixth more time at 1 000 pods (never published), so the " +
		"run should be slower, by a twentieth to two fifths",
	Low: 1.05, High: 1.40,
}, {
	Key: AblateKWOKWriters, Says: "KWOK at its default of 4 concurrent status writers", Handicap: true,
	Why: "parity gives KWOK " + fmt.Sprint(ParityStatusWriters) + " writers, as our hollow nodes have; at 4, a status PATCH of some " +
		"tens of milliseconds on the busy cores caps KWOK near a hundred pods a second, about the pace today's stack ran at " +
		"before parity, so the run should be slower, by a tenth up to two and a half times",
	Low: 1.10, High: 2.50,
}, {
	Key: AblateLimits, Says: "kube-apiserver's priority and fairness and inflight limits on", Handicap: true,
	Why: "the default limits (400 requests in flight, 200 mutating) are far above what a scale-up of this size keeps in " +
		"flight, and classifying a request costs microseconds: no difference, within a tenth either way",
	Low: 0.90, High: 1.10,
}, {
	Key: AblateLabWatch, Says: "the laboratory's watch of every pod through kube-apiserver, as it read today's stack before parity", Handicap: true,
	Why: "at parity the laboratory reads etcd's log and asks kube-apiserver nothing; its watch put back is one more watcher, " +
		"and kube-apiserver serves a watch from its watch cache and encodes each event once for all its watchers, so it adds " +
		"its stream's writes only: no more than a tenth of the time, either way",
	Low: 0.90, High: 1.10,
}, {
	Key: AblateSparseNodes, Says: fmt.Sprintf("%d pods a node, ten times the nodes", SparsePodsPerNode),
	Why: "kube-scheduler filters and scores every node for each pod below a hundred nodes, and KWOK renews a lease for " +
		"each node every 40 s; both grow with the nodes but are small beside a pod's own writes: slower by at most a " +
		"quarter, or no different",
	Low: 0.90, High: 1.25,
}, {
	Key: AblateDirectBinder, Says: "pods bound directly to the least loaded node, kube-scheduler left out",
	Why: "2014's hollow nodes bind each pod to the least loaded node with one request and no scheduling cycle; " +
		"kube-scheduler adds its own watches, a cycle per pod and a bind a pod, one at a time: binding directly should " +
		"be faster or the same, by up to two fifths",
	Low: 0.60, High: 1.05,
}, {
	Key: AblateMeter, On: Originals, Says: "the laboratory's meter in front of v0.4's apiserver",
	Why: "at parity v0.4's clients reach its apiserver directly, as our port's and today's reach theirs; the meter put " +
		"back proxies each request once more on loopback, in the laboratory's process, without TLS, some thousands of " +
		"requests in a scale-up of 1 000 pods, each far cheaper than v0.4's decoding of it, so the run should be at " +
		"most a seventh slower, or no different",
	Low: 0.95, High: 1.15,
}, {
	Key: AblateSparseNodes, On: Originals, Says: fmt.Sprintf("%d pods a node for v0.4, ten times the nodes", SparsePodsPerNode),
	Why: "a v0.4 bind rewrites the host's whole manifest list by compare-and-swap (assignPod's AtomicUpdate), decoding and " +
		"encoding every manifest on the host with v0.4's codec, so its cost grows with the pods already there; a profile of " +
		"v0.4's apiserver in one control run at parity (never published) put 58 % of its CPU under that AtomicUpdate. With a " +
		"tenth of the pods a node the binds cost about a tenth, and the run, bound by the apiserver's CPU, should take a " +
		"third to three quarters of the time",
	Low: 0.33, High: 0.75,
}, {
	Key: AblateSerialBinds, On: Originals, Says: "v0.4's pods bound one at a time, as its scheduler bound them",
	Why: "v0.4's bind is a compare-and-swap of the host's whole manifest list (assignPod's AtomicUpdate), tried again " +
		"until it wins, each try decoding and encoding the list with v0.4's codec; our hollow nodes bind up to " +
		fmt.Sprint(ParityStatusWriters) + " pods at once, so the binds to one host collide and are tried again. If those " +
		"collisions are what holds v0.4 back at parity, binding one at a time takes at least a third of the time off",
	Low: 0.20, High: 0.67,
}}

// on is the launcher the ablation applies to.
func (a Ablation) on() *Launcher {
	if a.On == nil {
		return TodayStack
	}
	return a.On
}

// ablationFor returns the ablation of that key for the parity variants
// of launcher l: a key may name one ablation for each launcher (the
// meter, the sparse nodes), each with its own prediction.
func ablationFor(key string, l *Launcher) (Ablation, error) {
	var on []string
	for _, a := range Ablations {
		if a.Key != key {
			continue
		}
		if a.on() == l {
			return a, nil
		}
		on = append(on, a.on().Name)
	}
	if len(on) == 0 {
		return Ablation{}, fmt.Errorf("no ablation %q (known: %s)", key, strings.Join(ablationKeys(), ", "))
	}
	return Ablation{}, fmt.Errorf("%s ablates a parity variant of %s, not of %s", key, strings.Join(on, " or "), l.Name)
}

// ablatedVariant is the control run name of base with one ablation:
// only a parity variant of today's stack or of v0.4's binaries has them.
func ablatedVariant(name, base, key string) (Variant, error) {
	v, err := VariantByName(base)
	if err != nil {
		return Variant{}, err
	}
	a, err := ablationFor(key, v.launcher())
	if err != nil {
		return Variant{}, fmt.Errorf("variant %q: %v", name, err)
	}
	if !v.Parity || v.Ablation != "" {
		return Variant{}, fmt.Errorf("variant %q: %s ablates a parity variant of %s, and %s is not one", name, a.Key, a.on().Name, base)
	}
	// A control run stands for no side of stack against stack.
	v.Name, v.Ablation, v.WholeStack = name, a.Key, ""
	if a.Key == AblateMeter {
		v.Unmetered = false
	}
	return v, nil
}

// Ablated says whether the variant is a control run of ablation key.
func (v Variant) Ablated(key string) bool { return v.Ablation == key }

// AblationOf splits a control run's name into the parity variant it
// ablates and its ablation; ok is false for any other name.
func AblationOf(name string) (base string, a Ablation, ok bool) {
	base, key, found := strings.Cut(name, "-with-")
	if !found {
		return "", Ablation{}, false
	}
	v, err := VariantByName(base)
	if err != nil {
		return "", Ablation{}, false
	}
	a, err = ablationFor(key, v.launcher())
	return base, a, err == nil
}

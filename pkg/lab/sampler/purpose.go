package sampler

import "strings"

// ManagerComponents are the client names (the first word of the
// User-Agent, as the apiserver labels its request counts) that belong to a
// controller-manager process: its controllers' client, and the client the
// modern manager's leader election renews its lease with. A figure of the
// managers' requests counts both. The original v0.4 binaries send no
// User-Agent of their own, only Go's default, "Go-http-client/1.1", which
// no component of ours sends: in a stack, the original controller-manager
// is the one client that sends it (the original apiserver's reads of
// itself do not pass the meter that counts its requests). On today's stack
// the meter in front of kube-apiserver names kube-controller-manager's
// requests so: every controller of it "controller-manager", its lease
// client "leader-election" (pkg/lab/stack/today, meter.go).
var ManagerComponents = []string{"controller-manager", "leader-election", "go-http-client"}

// What a controller-manager's request is for.
const (
	// PurposeSync is the controllers' work: LISTs, WATCHes and GETs of
	// what they manage, pod creates and deletes, endpoints writes, and the
	// 2014 client's polls of its asynchronous operations.
	PurposeSync = "sync"
	// PurposeStatus is a write of a replication controller, which only
	// the modern manager sends: its status.replicas (on today's stack,
	// a PUT of the controller's status subresource).
	PurposeStatus = "status_writes"
	// PurposeElection is every request of the leader-election client: the
	// GET and PUT (or POST, the first time) of its lease.
	PurposeElection = "leader_election"
	// PurposeEvents is a request on the events resource. The 2014 API has
	// no events: our managers record none, and upstream's
	// (controller-manager-upstream) stop at its adapter, which counts
	// them. It is counted to show it is zero, not assumed; on today's
	// stack kube-controller-manager records its events, and they count.
	PurposeEvents = "events"
)

// Purposes lists every purpose, in the order reports show them.
var Purposes = []string{PurposeSync, PurposeStatus, PurposeElection, PurposeEvents}

// isManagerComponent says whether a component label is a controller-manager's.
func isManagerComponent(component string) bool {
	for _, c := range ManagerComponents {
		if c == component {
			return true
		}
	}
	return false
}

// purposeOf says what a controller-manager's request with these labels is for.
func purposeOf(component, verb, resource string) string {
	switch {
	case component == "leader-election":
		return PurposeElection
	case resource == "events":
		return PurposeEvents
	case resource == "replicationControllers" && (verb == "PUT" || verb == "POST"):
		return PurposeStatus
	}
	return PurposeSync
}

// ManagerRequestCounts are the apiserver's counts of the requests that
// every controller-manager process sent, summed over codes.
type ManagerRequestCounts struct {
	ByVerb    map[string]float64
	ByPurpose map[string]float64
}

// CountManagerRequests reads the requests of the controller-manager
// processes from a scrape of the apiserver's metrics, by verb and by
// purpose. Every verb and purpose is present, zero when unseen.
func CountManagerRequests(m Metrics) ManagerRequestCounts {
	out := ManagerRequestCounts{ByVerb: map[string]float64{}, ByPurpose: map[string]float64{}}
	for _, v := range Verbs {
		out.ByVerb[v] = 0
	}
	for _, p := range Purposes {
		out.ByPurpose[p] = 0
	}
	m.Each("apiserver_request_total", func(l map[string]string, v float64) {
		if !isManagerComponent(l["component"]) {
			return
		}
		verb := strings.ToUpper(l["verb"])
		out.ByVerb[verb] += v
		out.ByPurpose[purposeOf(l["component"], verb, l["resource"])] += v
	})
	return out
}

// ManagerBodyBytes sums the body bytes the apiserver read from and wrote
// to the controller-manager processes, by the same components as their
// requests.
func ManagerBodyBytes(m Metrics) float64 {
	total := 0.0
	for _, name := range []string{"apiserver_request_body_bytes_total", "apiserver_response_body_bytes_total"} {
		m.Each(name, func(l map[string]string, v float64) {
			if isManagerComponent(l["component"]) {
				total += v
			}
		})
	}
	return total
}

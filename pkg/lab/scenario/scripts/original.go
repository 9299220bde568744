package scripts

import (
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// syncedAll says whether the managers have synced m controllers since
// they started, and how far they are. The original v0.4 manager counts no
// syncs: each of its passes is one LIST of every controller, one LIST of
// each controller's pods and its endpoints controller's LIST of the
// services (the scenarios that wait here have none), so a first pass is
// done at 2 + m LISTs.
func syncedAll(e *scenario.Env, m int) (bool, string) {
	if e.Variant.Original != "" {
		lists := e.Last(sampler.ManagerRequests + "LIST")
		return lists >= float64(2+m), fmt.Sprintf("%.0f LISTs of %d", lists, 2+m)
	}
	synced := e.Last(sampler.ManagerSyncs)
	return synced >= float64(m), fmt.Sprintf("%.0f syncs", synced)
}

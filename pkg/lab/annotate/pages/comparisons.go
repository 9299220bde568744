package pages

// The side-by-side pages, as data. Each row names a step, explains what
// changed and why (with the change that did it), and names the code on
// each side by declaration, so the excerpts follow the code. Edit here.

import "github.com/kube-rewind/kube-rewind/pkg/lab/source"

// Row is one step compared across the two designs.
type Row struct {
	// ID is the row's anchor.
	ID string
	// Then and Now name the step in each design; the row's title is
	// "Then ⟷ Now".
	Then, Now string
	// Explain is one paragraph, in the pages' prose markup (backticks,
	// #NNNN references). It cites pkg/history as "(history: <name>)"
	// rather than retelling a change's PRs, which the row's History
	// links show.
	Explain string
	// Legacy and Modern name each side's code. Mark the lines the row is
	// about: a long excerpt is then cut down to them (see Ref.Mark).
	Legacy []source.Ref
	Modern []source.Ref
	// History names the pkg/history entries the row is about; the page
	// links them and shows what the last history run measured.
	History []string
}

// Comparison is one side-by-side page.
type Comparison struct {
	Page  string
	Title string
	Intro string
	// LegacyFile and ModernFile are the pair being compared. Without the
	// modern file every modern cell says so.
	LegacyFile, ModernFile string
	Rows                   []Row
}

// Comparisons are the side-by-side pages.
var Comparisons = []Comparison{
	{
		Page:       "side-by-side-replication-manager.html",
		Title:      "The ReplicationManager, 2014 and now",
		LegacyFile: "pkg/controller/replication_controller.go",
		ModernFile: "pkg/controller/replication_controller_modern.go",
		Intro: "The same job — keep each replication controller's pod count at its desired replicas — done by the " +
			"v0.4 manager of October 2014 (default build) and by today's design (`-tags modern`). Each row is one " +
			"step: what 2014 did, what replaced it, and the change that did it. The code on each side is cut from " +
			"the source by declaration name when this page is built.",
		Rows: []Row{
			{
				ID: "watch", Then: "a watch on controllers", Now: "shared informers",
				History: []string{"pod-informer"},
				Explain: "In 2014 the manager opens one watch on all replication controllers and nothing else. " +
					"When the stream ends, `util.Forever` opens another one a period later, from the last " +
					"resourceVersion seen; pods are never watched, so a dead pod is only noticed by the next " +
					"tick. Today shared informers list and watch both controllers and pods, keep a local cache " +
					"of each, and turn every event into the key of the controller it concerns; the RC manager " +
					"moved onto them in April 2015 (history: pod-informer).",
				Legacy: []source.Ref{
					{Dir: "pkg/controller", Name: "ReplicationManager.Run", Mark: []string{"util.Forever("}},
					{Dir: "pkg/controller", Name: "ReplicationManager.watchControllers", Mark: []string{"WatchReplicationControllers(", "case event, open := <-watching.ResultChan():", "rm.syncHandler(*rc)"}},
				},
				Modern: []source.Ref{
					{Dir: "pkg/controller", Name: "NewReplicationManager", Mark: []string{"rcInformer.Informer().AddEventHandler(", "podInformer.Informer().AddEventHandler("}},
					{Dir: "pkg/controller", Name: "ReplicationManager.addPod", Mark: []string{"rm.add(rcKey, SyncPod)", "rm.enqueueRC(rc, SyncPod)"}},
				},
			},
			{
				ID: "tick", Then: "the 10 s tick and synchronize", Now: "a workqueue and workers",
				History: []string{"rate-limited-requeue", "wait-for-caches"},
				Explain: "Every 10 s `synchronize` LISTs every controller and syncs each in its own goroutine, " +
					"whether or not anything changed: 6 × (1 + #RC) LISTs a minute on an idle cluster " +
					"(history: pod-informer). A failed create waits for the next tick. Today nothing ticks: keys wait in a " +
					"rate-limited workqueue that folds duplicate keys into one and never hands a key to two " +
					"workers at once, and a failed sync comes back with a per-key exponential backoff. The " +
					"workqueue came with the endpoints rewrite (history: endpoints-informer); its rate limiter, " +
					"and the RC manager's use of it after controllers hot-looped on API rejections, came in 2016 " +
					"(history: rate-limited-requeue).",
				Legacy: []source.Ref{
					{Dir: "pkg/controller", Name: "ReplicationManager.synchronize", Mark: []string{"ListReplicationControllers(", "go func(ix int) {"}},
				},
				Modern: []source.Ref{
					{Dir: "pkg/controller", Name: "ReplicationManager.Run", Mark: []string{"wait.UntilWithContext(ctx, rm.worker"}},
					{Dir: "pkg/controller", Name: "ReplicationManager.processNextWorkItem", Mark: []string{"rm.queue.Get()", "rm.queue.Forget(key)", "rm.addRateLimited(key)"}},
				},
			},
			{
				ID: "list", Then: "a LIST of pods per sync", Now: "the pod lister",
				History: []string{"pod-informer"},
				Explain: "Each 2014 sync asks the apiserver for the controller's pods, and the apiserver reads " +
					"every pod out of etcd before applying the selector, so a sync costs in proportion to all " +
					"pods in the cluster. At 1 500 replicas on 50 nodes each LIST took seconds and saturated a " +
					"4-core master (history: pod-informer). Today the sync reads the informer's cache through a " +
					"lister and sends no request; in exchange it must not act before the cache is full, which is " +
					"why `Run` waits for the caches to sync (history: wait-for-caches).",
				Legacy: []source.Ref{
					{Dir: "pkg/controller", Name: "ReplicationManager.syncReplicationController", Focus: "ListPods", Mark: []string{"rm.kubeClient.ListPods(ctx, s)"}},
				},
				Modern: []source.Ref{
					{Dir: "pkg/controller", Name: "ReplicationManager.listPods", Mark: []string{"rm.podLister.Pods(namespace).List("}},
				},
			},
			{
				ID: "burst", Then: "a goroutine per pod", Now: "slowStartBatch and a burst cap",
				History: []string{"burst-cap", "slow-start"},
				Explain: "2014 starts one goroutine and one POST for every missing pod at once, with no upper " +
					"bound: scaling to 1 000 means 1 000 concurrent requests, and under a quota that " +
					"refuses them all the same 1 000 requests come back every 10 s. Today one sync creates at " +
					"most `burstReplicas` (500) pods, in slow-start batches of 1, 2, 4, … that stop at " +
					"the first failure, so a doomed scale-up costs one request instead of 500 (history: burst-cap, slow-start).",
				Legacy: []source.Ref{
					{Dir: "pkg/controller", Name: "ReplicationManager.syncReplicationController", Focus: "createReplica", Mark: []string{"go func() {", "rm.podControl.createReplica(ctx, controllerSpec)"}},
				},
				Modern: []source.Ref{
					{Dir: "pkg/controller", Name: "BurstReplicas"},
					{Dir: "pkg/controller", Name: "ReplicationManager.manageReplicas", Mark: []string{"slowStartBatch(diff, initialBatchSize"}},
					{Dir: "pkg/controller", Name: "slowStartBatch", Mark: []string{"batchSize = min(2*batchSize, remaining)", "return successes, <-errCh"}},
				},
			},
			{
				ID: "expectations", Then: "no guard against double counting", Now: "expectations",
				History: []string{"expectations"},
				Explain: "Nothing in 2014 remembers which creates are still in flight: a sync that runs before new " +
					"pods show up in a LIST creates them again. A cache makes this worse, since it always lags " +
					"the writes, so the 2015 rewrite added expectations: before acting, a sync records " +
					"how many creates or deletes it expects to observe, and later syncs do nothing until the " +
					"informer has seen them or 5 minutes pass. They must be checked before the pods are " +
					"counted, and deletions are tracked per pod so a graceful delete is counted once " +
					"(history: expectations).",
				Legacy: []source.Ref{
					{Dir: "pkg/controller", Name: "RealPodControl.createReplica", Mark: []string{"r.kubeClient.CreatePod(ctx, pod)"}},
				},
				Modern: []source.Ref{
					{Dir: "pkg/controller", Name: "ReplicationManager.syncReplicationController", Focus: "SatisfiedExpectations(", Mark: []string{"rm.expectations.SatisfiedExpectations(key)"}},
					{Dir: "pkg/controller", Name: "ReplicationManager.manageReplicas", Mark: []string{"rm.expectations.ExpectCreations(rcKey, diff)"}},
					{Dir: "pkg/controller", Name: "ReplicationManager.addPod", Mark: []string{"rm.expectations.CreationObserved(rcKey)"}},
				},
			},
			{
				ID: "ownership", Then: "the label selector", Now: "ControllerRef (claimPods)",
				History: []string{"controller-ref"},
				Explain: "In 2014 a pod belongs to every controller whose selector matches its labels, so two " +
					"controllers with overlapping selectors count each other's pods and fight over the total " +
					"(history: controller-ref). Today each pod names at most one owner in its `ownerReferences`: " +
					"a sync claims the pods that point at it and still match, adopts matching orphans, and " +
					"releases pods that no longer match. The RC manager began setting ControllerRef in 2016, and " +
					"the claim/adopt/release logic became shared code in 2017.",
				Legacy: []source.Ref{
					{Dir: "pkg/controller", Name: "ReplicationManager.syncReplicationController", Focus: "filterActivePods(", Mark: []string{"filterActivePods(podList.Items)"}},
					{Dir: "pkg/controller", Name: "filterActivePods"},
				},
				Modern: []source.Ref{
					{Dir: "pkg/controller", Name: "ReplicationManager.claimPods", Mark: []string{"cm.ClaimPods(ctx, filteredPods)"}},
					{Dir: "pkg/controller", Name: "BaseControllerRefManager.ClaimObject", Mark: []string{"controllerRef.UID != m.Controller.GetUID()", "release(ctx, obj)", "adopt(ctx, obj)"}},
				},
			},
			{
				ID: "deletion", Then: "deletion in list order", Now: "getPodsToDelete ranking",
				History: []string{"ranked-deletion"},
				Explain: "2014 deletes the first surplus pods the LIST returned, whatever their state: a Running " +
					"pod goes as readily as one still waiting for a host. By mid-2015 the manager sorted " +
					"candidates so that unscheduled, pending and not-ready pods go first; today " +
					"`getPodsToDelete` also prefers pods on nodes crowded with their siblings and, since " +
					"2021, picks among similarly old pods at random (history: ranked-deletion).",
				Legacy: []source.Ref{
					{Dir: "pkg/controller", Name: "ReplicationManager.syncReplicationController", Focus: "deletePod", Mark: []string{"rm.podControl.deletePod(ctx, filteredList[ix].ID)"}},
				},
				Modern: []source.Ref{
					{Dir: "pkg/controller", Name: "getPodsToDelete", Mark: []string{"sort.Sort(podsWithRanks)"}},
					{Dir: "pkg/controller", Name: "ActivePodsWithRanks.Less", Mark: []string{"len(pi.Spec.NodeName) == 0 ||", "podPhaseToOrdinal[pi.Status.Phase] !=", "IsPodReady(pi) != IsPodReady(pj)", "s.Rank[i] != s.Rank[j]"}},
				},
			},
			{
				ID: "status", Then: "no status write", Now: "calculateStatus and a status write",
				History: []string{"status-writes"},
				Explain: "The v0.4 manager writes nothing back to the controller: the apiserver fills " +
					"`currentState.replicas` by counting matching pods on every GET and LIST of a controller, " +
					"one more pod LIST per read. Once the manager kept a cache it reported status itself; " +
					"today it computes the counts from the pods it claimed and writes them with one update, " +
					"skipped when nothing changed, so an idle controller costs no requests.",
				Legacy: []source.Ref{
					{Dir: "pkg/registry/controller", Name: "REST.fillCurrentState", Mark: []string{"rs.podLister.ListPods(", "controller.CurrentState.Replicas = len(list.Items)"}},
				},
				Modern: []source.Ref{
					{Dir: "pkg/controller", Name: "calculateStatus", Mark: []string{"IsPodReady(pod)"}},
					{Dir: "pkg/controller", Name: "updateReplicationControllerStatus", Mark: []string{"conditionsEqual(rc.Status.Conditions, newStatus.Conditions)", "c.UpdateReplicationController(nsCtx"}},
				},
			},
			{
				ID: "leader", Then: "util.Forever, no lock", Now: "leader election",
				History: []string{"leader-election"},
				Explain: "In 2014 the controller-manager starts its loops under `util.Forever` and runs them " +
					"for the life of the process; two controller-managers both act, and both create the same " +
					"missing pods. High availability meant a `podmaster` sidecar holding an etcd lease until " +
					"`--leader-elect` arrived in Kubernetes 1.2 (history: leader-election). Today only the " +
					"holder of a lease, stored through the apiserver, runs the loops.",
				Legacy: []source.Ref{
					{Dir: "cmd/controller-manager", Name: "run", Mark: []string{"util.Forever(", "controllerManager.Run(*syncPeriod)"}},
					{Dir: "pkg/util", Name: "Forever"},
				},
				Modern: []source.Ref{
					{Dir: "cmd/controller-manager", Name: "run", Mark: []string{"leaderelection.Lead(newElectionClient(), election, runControllers)"}},
					{Dir: "pkg/modern/leaderelection", Name: "Lead", Mark: []string{"leaderelection.RunOrDie(", "OnStartedLeading: func(ctx context.Context) {", "run(ctx)"}},
				},
			},
		},
	},
	{
		Page:       "side-by-side-endpoints.html",
		Title:      "The endpoints controller, 2014 and now",
		LegacyFile: "pkg/service/endpoints_controller.go",
		ModernFile: "pkg/service/endpoints_controller_modern.go",
		Intro: "The endpoints controller keeps, for every service, the list of `ip:port` pairs of the pods its " +
			"selector matches. In October 2014 it had just moved from the apiserver into the " +
			"controller-manager and still recomputed everything every 10 s; today it reacts to changes.",
		Rows: []Row{
			{
				ID: "loop", Then: "util.Forever and a LIST of everything", Now: "informers and a workqueue of service keys",
				History: []string{"endpoints-informer"},
				Explain: "Every 10 s the 2014 controller LISTs all services, then LISTs the pods of each one and " +
					"GETs its endpoints: 1 + 2·S requests per pass for S services even when nothing changed, " +
					"and each pod LIST reads every pod on the server. In the 2015 density tests these LISTs " +
					"were over 60 % of the apiserver's CPU; the rewrite (history: endpoints-informer) put services and pods " +
					"in local caches and the keys of services whose pods changed in a workqueue — the first " +
					"use of `pkg/util/workqueue`, so a big service cannot starve the small ones.",
				Legacy: []source.Ref{
					{Dir: "cmd/controller-manager", Name: "run", Mark: []string{"endpoints.SyncServiceEndpoints()"}},
					{Dir: "pkg/service", Name: "EndpointController.SyncServiceEndpoints", Focus: "ListServices", Mark: []string{"e.client.ListServices(ctx", "e.client.ListPods(nsCtx"}},
				},
				Modern: []source.Ref{
					{Dir: "pkg/service", Name: "NewEndpointController", Mark: []string{"serviceInformer.Informer().AddEventHandler(", "podInformer.Informer().AddEventHandler("}},
					{Dir: "pkg/service", Name: "EndpointController.getPodServiceMemberships", Mark: []string{"e.serviceLister.Services(pod.Namespace)", "keys = append(keys, key)"}},
					{Dir: "pkg/service", Name: "EndpointController.processNextWorkItem", Mark: []string{"e.queue.Get()", "e.queue.AddRateLimited(key)"}},
				},
			},
			{
				ID: "compare", Then: "GET and compare", Now: "compare against the cache",
				Explain: "v0.4 already skipped the write when a service's addresses had not changed, but had to " +
					"GET the endpoints object on every pass to know it. Today the current endpoints come from " +
					"a lister, so a sync with nothing to change sends no request at all, and one that does " +
					"sends a single create or update.",
				Legacy: []source.Ref{
					{Dir: "pkg/service", Name: "EndpointController.SyncServiceEndpoints", Focus: "GetEndpoints", Mark: []string{"e.client.GetEndpoints(nsCtx, service.ID)"}},
					{Dir: "pkg/service", Name: "EndpointController.SyncServiceEndpoints", Focus: "endpointsEqual(", Mark: []string{"endpointsEqual(currentEndpoints, endpoints)"}},
					{Dir: "pkg/service", Name: "endpointsEqual"},
				},
				Modern: []source.Ref{
					{Dir: "pkg/service", Name: "EndpointController.syncService", Mark: []string{"e.podLister.Pods(namespace).List(", "e.endpointsLister.Endpoints(namespace).Get(name)", "if endpointsEqual(old, endpoints)", "e.client.UpdateEndpoints(nsCtx, old)"}},
				},
			},
		},
	},
}

package history

// Where the dates come from.
const (
	upstreamLog = "merge commit in the upstream history"
	notesTable  = "the project's research notes (modern-and-history, timeline); after 2015-04-20, where the upstream history available here ends, so not checked against it"
)

// Changes is the catalogue, in the order the changes landed.
var Changes = []Change{{
	Name:       "watch-relist",
	Title:      "A watch whose resourceVersion etcd forgot starts over",
	PRs:        []string{"#4102"},
	Date:       "2015-02-05",
	DateSource: upstreamLog + " (2c9e620d4)",
	What: "etcd v2 keeps only its last 1 000 events, and a manager whose watch resumed from an " +
		"older resourceVersion got an error, retried the same version for ever and kept working " +
		"only by its 10 s tick; the manager learned to forget the version and watch from now, " +
		"leaving what it missed to the next sync. Today's informers list again and watch from the list.",
	Scenario:    "watch-window",
	Figure:      "resize_to_running",
	WithoutMore: true,
	With:        "A resize after the watch fell out of etcd's window is acted on at once.",
	Without:     "The resize waits for the next tick, up to a period, as the 2014 manager's did.",
	Code: []Place{
		{"pkg/modern/informers/listwatch.go", "ListWatch.WatchWithContext"},
	},
	NoSwitch: "client-go's reflector lists again on a 410 and has no setting to stop it; the legacy " +
		"build shows the manager without the change",
}, {
	Name:   "status-writes",
	Title:  "The manager writes status.replicas",
	Issues: []string{"#4429"},
	PRs:    []string{"#4751"},
	Date:   "2015-03-11",
	DateSource: upstreamLog + " (the PR was opened on 2015-02-23, after issue #4429 of " +
		"2015-02-13)",
	What: "The replication manager started writing the count of its pods into the controller's " +
		"status, instead of the apiserver counting matching pods on every read, so that reads and " +
		"watches stop costing a pod LIST each and the status says what the manager saw.",
	Scenario:    "scale-up",
	Figure:      "status_writes",
	WithoutMore: false,
	With:        "The manager PUTs the controller as its pods appear and become ready.",
	Without:     "The manager sends no PUT; status.replicas is still filled by the apiserver on each read, as in v0.4.",
	Code: []Place{
		{"pkg/controller/replication_status_modern.go", "updateReplicationControllerStatus"},
		{"pkg/controller/replication_controller_modern.go", "ReplicationManager.syncReplicationController"},
		{"pkg/registry/controller/rest.go", "REST.fillCurrentState"},
	},
	Switch: "The manager skips its status write. Ours: the apiserver keeps filling " +
		"currentState.replicas on read in both builds, so there is no apiserver-side switch: " +
		"switched off is v0.4's arrangement, switched on is today's writer beside a v0.4 reader.",
}, {
	Name:       "qps",
	Title:      "A client-side request rate limit",
	Issues:     []string{"#5865"},
	PRs:        []string{"#6203", "#15247"},
	Date:       "2015-04-03",
	DateSource: upstreamLog + " for #6203; #15247 (the --kube-api-qps=20 --kube-api-burst=30 flags, 2015-10-07) from " + notesTable,
	What: "The client got a token-bucket limit on requests per second so that a controller " +
		"cannot flood the apiserver; the controller-manager's limit became 20 a second, burst 30.",
	Scenario:    "scale-up",
	Figure:      "time_to_create",
	WithoutMore: false,
	With:        "Above the burst of 30, pods are created at about 20 a second.",
	Without:     "Pods are created as fast as the apiserver answers: time to create falls.",
	Code: []Place{
		{"cmd/controller-manager/run_modern.go", "clientConfig"},
	},
	Switch: "The client has no rate limit, as -kube_api_qps=0.",
}, {
	Name:       "endpoints-informer",
	Title:      "The endpoints controller on informers and a workqueue",
	Issues:     []string{"#6518", "#6884"},
	PRs:        []string{"#6943"},
	Date:       "2015-04",
	DateSource: "opened 2015-04-16, per " + notesTable + "; the merge date is not verified",
	What: "The endpoints controller stopped LISTing every service's pods every 10 s (over 60 % of " +
		"the apiserver's CPU in the density test) and worked from cached pods and services, with a " +
		"workqueue so that big services do not starve small ones.",
	Scenario:    "idle",
	Figure:      "lists_per_min",
	WithoutMore: true,
	With:        "An idle cluster costs the endpoints controller no LIST.",
	Without:     "1 + S LISTs every 10 s for S services, as the 2014 controller.",
	Code: []Place{
		{"pkg/service/endpoints_controller_modern.go", "NewEndpointController"},
		{"pkg/service/endpoints_controller_modern.go", "EndpointController.syncService"},
	},
	NoSwitch: "the informer-based endpoints controller has no path back to polling short of " +
		"running the 2014 controller; the legacy build shows that",
}, {
	Name:   "pod-informer",
	Title:  "A pod informer instead of a pod LIST per sync",
	Issues: []string{"#6562", "#6514"},
	PRs:    []string{"#6866", "#5270"},
	Date:   "2015-04",
	DateSource: "opened 2015-04-15 and merged late in April, per " + notesTable + "; the merge date is not verified. " +
		"#5270, the controller framework (reflector, queue and handlers) the informer came from, is a " + upstreamLog + " of 2015-04-07",
	What: "The manager watched pods into a cache and synced a controller when one of its pods " +
		"changed, instead of LISTing every controller's pods from the apiserver on every 10 s tick.",
	Scenario:    "scale-up",
	Figure:      "manager_lists",
	WithoutMore: true,
	With:        "One LIST of pods when the informer starts; syncs read the cache.",
	Without:     "One LIST of the namespace's pods on every sync.",
	Code: []Place{
		{"pkg/controller/replication_controller_modern.go", "ReplicationManager.listPods"},
		{"pkg/controller/replication_controller_modern.go", "NewReplicationManager"},
	},
	Switch: "Every sync LISTs the namespace's pods from the apiserver instead of reading the " +
		"cache; the informer still feeds events, expectations and ControllerRef lookups.",
}, {
	Name:       "expectations",
	Title:      "Expectations: remember the creates and deletes in flight",
	Issues:     []string{"#7369", "#22061"},
	PRs:        []string{"#6866", "#8138", "#22143", "#22579"},
	Date:       "2015-04",
	DateSource: "came with #6866 (late April 2015); #8138 (2015-05-12), #22143 (graceful deletes counted once, 2016-02-28) and the UID tracking of #22579 (2016-03-05) per " + notesTable,
	What: "A manager reading a cache must not act on a cache that has not yet seen its own " +
		"creates and deletes, so each sync records what it asked for and the next one waits " +
		"until the informer has seen it (or five minutes pass); #22579 tracks deletes by pod so a " +
		"graceful delete counts once.",
	Scenario:    "scale-up",
	Figure:      "pod_creates",
	WithoutMore: true,
	With:        "Exactly N creates.",
	Without:     "A sync that runs before the informer has seen the last batch creates those pods again: more than N creates.",
	Code: []Place{
		{"pkg/controller/expectations_modern.go", "UIDTrackingControllerExpectations"},
		{"pkg/controller/replication_controller_modern.go", "ReplicationManager.syncReplicationController"},
	},
	Switch: "SatisfiedExpectations is not asked: every sync manages replicas.",
}, {
	Name:       "burst-cap",
	Title:      "At most 500 creates or deletes per sync",
	Issues:     []string{"#4866", "#33041"},
	PRs:        []string{"#7869"},
	Date:       "2015-05-06",
	DateSource: notesTable,
	What: "A controller of 1 000 replicas started 1 000 goroutines sending 1 000 POSTs at once " +
		"(#4866); the manager now makes at most 500 per sync and waits for the informer to see " +
		"them before the next 500.",
	Scenario:    "scale-up",
	Figure:      "peak_goroutines",
	WithoutMore: true,
	With:        "For N=1000, two syncs of 500; slow start's largest batch is 245.",
	Without:     "One sync of 1 000; slow start's largest batch is 489: more goroutines at the peak.",
	Code: []Place{
		{"pkg/controller/replication_controller_modern.go", "BurstReplicas"},
		{"pkg/controller/replication_manage_modern.go", "ReplicationManager.manageReplicas"},
	},
	Switch: "No cap: burst_replicas is set beyond any replica count.",
}, {
	Name:       "wait-for-caches",
	Title:      "Wait for the caches before acting",
	Issues:     []string{"#10030"},
	PRs:        []string{"#10147"},
	Date:       "2015-06-20",
	DateSource: notesTable,
	What: "A restarted manager acted before its pod cache was full, counted too few pods and " +
		"created extras; it now waits until its informers have listed everything.",
	Scenario:    "restart",
	Figure:      "extra_pods",
	WithoutMore: true,
	With:        "No extra pod across a restart.",
	Without:     "The first sync runs before the pod informer's first LIST lands, sees no pod, and creates the pods that already exist. Ours: the scenario makes that LIST 3 s slower, as on a big cluster; on loopback it often landed first.",
	Code: []Place{
		{"pkg/controller/replication_controller_modern.go", "ReplicationManager.Run"},
	},
	Switch: "Run starts its workers without waiting for the informers to sync.",
}, {
	Name:       "ranked-deletion",
	Title:      "Delete the least useful pods first",
	PRs:        []string{"#99212", "#125459"},
	Date:       "2015",
	DateSource: "the first ranking (unscheduled, then pending, then not ready, first) is in the 2015 manager per " + notesTable + "; its PR is not identified, and it is not in the upstream history up to 2015-04-20. The log-scale ranking with random ties is #99212 (2021-02-18), GA in #125459 (2024-06-12)",
	What: "Scaling down deletes unscheduled, pending, not-ready and younger pods before " +
		"running, ready, older ones, instead of the first pods of the list.",
	Scenario:    "partial-scale-down",
	Figure:      "running_deleted",
	WithoutMore: true,
	With:        "Resized from 2N (N running, N unscheduled) back to N, the manager deletes the N unscheduled pods: no running pod dies.",
	Without:     "The surplus goes in list order: running pods die and unscheduled ones stay.",
	Code: []Place{
		{"pkg/controller/replication_manage_modern.go", "getPodsToDelete"},
		{"pkg/controller/controller_utils_modern.go", "ActivePodsWithRanks"},
	},
	Switch: "Surplus pods are deleted in list order, as in 2014.",
}, {
	Name:       "leader-election",
	Title:      "Leader election between controller-managers",
	PRs:        []string{"#16830", "#19621"},
	Date:       "2016-01-14",
	DateSource: notesTable,
	What: "Two controller-managers for high availability both acted on every controller and " +
		"fought; --leader-elect lets only the holder of a lock act.",
	Scenario:    "two-managers",
	Figure:      "pod_creates",
	WithoutMore: true,
	With:        "Exactly N creates: only the leader acts.",
	Without:     "Both managers see the deficit and both create: more than N creates, then deletes.",
	Code: []Place{
		{"cmd/controller-manager/run_modern.go", "run"},
	},
	Switch: "No election: each manager runs its controllers at once, as -leader_elect=false.",
}, {
	Name:       "rate-limited-requeue",
	Title:      "Failed syncs come back with exponential backoff",
	Issues:     []string{"#30629", "#22298"},
	PRs:        []string{"#24052", "#30626"},
	Date:       "2016-04-20",
	DateSource: "#24052 (the rate limiters) and #30626 (RCs use them, 2016-08-15) per " + notesTable,
	What: "Controllers hot-looped on requests the apiserver refused; a failed sync now comes " +
		"back after 5 ms, 10 ms, 20 ms, ... up to 1 000 s.",
	Scenario:    "api-errors",
	Figure:      "requests_per_min_during_fault",
	WithoutMore: true,
	With:        "Fewer and fewer attempts while every create is refused.",
	Without:     "The failed controller is synced again at once, for as long as the refusals last.",
	Code: []Place{
		{"pkg/controller/replication_controller_modern.go", "ReplicationManager.processNextWorkItem"},
	},
	Switch: "A failed key is put back on the queue at once, without backoff.",
}, {
	Name:  "garbage-collector",
	Title: "A garbage collector deletes the pods of a deleted controller",
	PRs:   []string{"#24509", "#26341", "#30480"},
	Date:  "2016-05",
	DateSource: "#24509 (the collector; its review threads are of 2016-05-12) and #26341 (in kube-controller-manager, off by default; opened 2016-05-26), both merged, their merge dates not verified; #30480 turned it on by default for 1.4 (opened 2016-08-11). From the upstream issue tracker: " +
		"the upstream history available here ends on 2015-04-20",
	What: "Cascading deletion moved from kubectl into the control plane: a collector in " +
		"kube-controller-manager deletes an object once every owner its ownerReferences name is " +
		"gone, so deleting a controller takes its pods with it. Once pods named their controller by " +
		"uid (ControllerRef), a deleted controller's pods could be neither counted nor adopted by a " +
		"controller recreated with the same selector; the collector removes them.",
	Scenario:    "recreate",
	Figure:      "extra_pods",
	WithoutMore: true,
	With:        "The deleted controller's pods are deleted; the recreated controller ends with exactly N.",
	Without:     "The deleted controller's N pods run on beside the recreated controller's N: 2N active pods.",
	Code: []Place{
		{"pkg/controller/garbage_collector_modern.go", "GarbageCollector.attemptToDeletePod"},
		{"cmd/controller-manager/run_modern.go", "run"},
	},
	Switch: "The controller-manager runs no garbage collector stand-in, as kube-controller-manager " +
		"with --controllers=-garbagecollector.",
}, {
	Name:       "controller-ref",
	Title:      "ControllerRef: each pod has one owning controller",
	Issues:     []string{"#11981"},
	PRs:        []string{"#27600", "#41361"},
	Date:       "2016-06-17",
	DateSource: "#27600 (RC sets ControllerRef) and #41361 (the shared adopt/release manager, 2017-02-13) per " + notesTable,
	What: "Controllers with overlapping selectors counted each other's pods and fought; each " +
		"pod now names its controller, which adopts orphans and releases pods that stop matching.",
	Scenario:    "overlap",
	Figure:      "deletes_during_overlap",
	WithoutMore: true,
	With:        "Each controller counts its own pods: no delete.",
	Without:     "Each counts every matching pod: a deletes b's pods, b recreates them.",
	Code: []Place{
		{"pkg/controller/controller_ref_manager_modern.go", "PodControllerRefManager.ClaimPods"},
		{"pkg/controller/replication_controller_modern.go", "ReplicationManager.claimPods"},
	},
	Switch: "A controller counts every active pod its selector matches, whoever owns it, and " +
		"adopts and releases nothing; every matching controller hears of a pod's arrival and " +
		"departure. Ours: the pods still carry their creator's ControllerRef, which only the " +
		"creator's expectations use.",
}, {
	Name:       "slow-start",
	Title:      "Creates in batches of 1, 2, 4, ...",
	Issues:     []string{"#47366", "#49145"},
	PRs:        []string{"#49142"},
	Date:       "2017-07-18",
	DateSource: notesTable,
	What: "A controller whose creates were all refused (quota) sent up to 500 doomed POSTs per " +
		"attempt; creates now go in doubling batches that stop at the first failure.",
	Scenario:    "api-errors",
	Figure:      "posts_per_min_during_fault",
	WithoutMore: true,
	With:        "One POST per attempt while every create is refused.",
	Without:     "Every missing pod is POSTed on every attempt.",
	Code: []Place{
		{"pkg/controller/replication_manage_modern.go", "slowStartBatch"},
		{"pkg/controller/replication_manage_modern.go", "ReplicationManager.manageReplicas"},
	},
	Switch: "One batch of all the creates.",
}}

package history

// Changes is the catalogue, in the order the changes landed: by the day
// their first pull request merged upstream, each day checked against the
// pages its Merged entries link.
var Changes = []Change{{
	Name:  "watch-relist",
	Title: "A watch whose resourceVersion etcd forgot starts over",
	PRs:   []string{"#4102"},
	Merged: []Merge{{
		PR: "#4102", Date: "2015-02-05",
		Brought: "the manager clears the resourceVersion it watches from when the watch ends or fails",
		Sources: []Source{commit("2c9e620d437270c1d9ecba8f1ac1d93266fc70fa")},
	}},
	Date: "2015-02-05",
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
	Merged: []Merge{{
		PR: "#4751", Date: "2015-03-11",
		Brought: "the manager PUTs the count of its active pods into the controller, and the apiserver stops " +
			"recounting them on every read",
		Sources: []Source{commit("cd8a979206d709d0997adf539fba5ea1623cf435")},
	}},
	Date: "2015-03-11",
	What: "The replication manager started writing the count of its pods into the controller's " +
		"status, instead of the apiserver counting matching pods on every read, so that reads and " +
		"watches stop costing a pod LIST each and the status says what the manager saw.",
	Scenario:    "scale-up",
	Figure:      "status_writes",
	WithoutMore: false,
	With:        "The manager PUTs the controller as its pods appear and become ready.",
	Without:     "The manager sends no PUT; status.replicas is still filled by the apiserver on each read, as in v0.4.",
	Cost: "The PUTs are requests the 2014 manager never sent. They buy a status that says what the manager saw, " +
		"and in Kubernetes an apiserver that no longer counts a controller's pods on every read and watch " +
		"(ours still does, see the switch).",
	Code: []Place{
		{"pkg/controller/replication_status_modern.go", "updateReplicationControllerStatus"},
		{"pkg/controller/replication_controller_modern.go", "ReplicationManager.syncReplicationController"},
		{"pkg/registry/controller/rest.go", "REST.fillCurrentState"},
	},
	Switch: "The manager skips its status write. Ours: the apiserver keeps filling " +
		"currentState.replicas on read in both builds, so there is no apiserver-side switch: " +
		"switched off is v0.4's arrangement, switched on is today's writer beside a v0.4 reader.",
}, {
	Name:   "qps",
	Title:  "A client-side request rate limit",
	Issues: []string{"#5865"},
	PRs:    []string{"#6203", "#6635", "#15247"},
	Merged: []Merge{{
		PR: "#6203", Date: "2015-04-03",
		Brought: "a token bucket in the REST client: 5 requests a second unless configured, bursts of 10",
		Sources: []Source{commit("88dbdc4a692418fb8a3c0dc13acd9a17d4d6b778")},
	}, {
		PR: "#6635", Date: "2015-04-10",
		Brought: "the controller-manager's client set to 20 a second, bursts of 30",
		Sources: []Source{commit("2e24c50c1c9e8bd042b2617ce6d37182bd6c2a19")},
	}, {
		PR: "#15247", Date: "2015-10-12",
		Brought: "those values as the flags --kube-api-qps and --kube-api-burst",
		Sources: []Source{commit("69a8dc64c72b6268ebeb8cd03493aa219643a79d")},
	}},
	Date: "2015-04-03",
	What: "The client got a token-bucket limit on requests per second so that a controller " +
		"cannot flood the apiserver; the controller-manager's limit became 20 a second, burst 30.",
	Scenario:    "scale-up",
	Figure:      "time_to_create",
	WithoutMore: false,
	With:        "Above the burst of 30, pods are created at about 20 a second.",
	Without:     "Pods are created as fast as the apiserver answers: time to create falls.",
	Cost: "The limit slows the manager on purpose, to 20 requests a second after a burst of 30, so that one " +
		"controller cannot flood the apiserver; the longer time to create is its price.",
	Code: []Place{
		{"cmd/controller-manager/run_modern.go", "clientConfig"},
	},
	Switch: "The client has no rate limit, as -kube_api_qps=0.",
}, {
	Name:   "endpoints-informer",
	Title:  "The endpoints controller on informers and a workqueue",
	Issues: []string{"#6518", "#6884"},
	PRs:    []string{"#6943"},
	Merged: []Merge{{
		PR: "#6943", Date: "2015-04-17",
		Brought: "the endpoints controller on cached pods and services, and the workqueue package",
		Sources: []Source{commit("f2f40b06aa4606080569d0a9eb13112f021c7364")},
	}},
	Date: "2015-04-17",
	What: "The endpoints controller stopped LISTing every service's pods every 10 s (over 60 % of " +
		"the apiserver's CPU in the density test, #6518) and worked from cached pods and services, with a " +
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
	Name:   "ranked-deletion",
	Title:  "Delete the least useful pods first",
	Issues: []string{"#3948"},
	PRs:    []string{"#6992", "#22078", "#99212", "#125459"},
	Merged: []Merge{{
		PR: "#6992", Date: "2015-04-21",
		Brought: "the first ranking: unscheduled before scheduled, pending before unknown before running, " +
			"not ready before ready",
		Sources: []Source{commit("8ae4cb384ea6310aeec9a39564a0e2883034fe8b")},
	}, {
		PR: "#22078", Date: "2016-02-28",
		Brought: "then ready for less time, more container restarts, and created more recently first",
		Sources: []Source{commit("8b19638bd09c929f7b91b9515b9f9b240ec20b70")},
	}, {
		PR: "#99212", Date: "2021",
		Known: "opened on 2021-02-18; listed in the changes of v1.21.0 since v1.20.0, as the alpha " +
			"feature gate LogarithmicScaleDown",
		Brought: "ready and creation times compared on a log2 scale, so that pods of about the same age " +
			"tie and the sort chooses among them",
		Sources: []Source{
			pull("99212", "the pull request, opened on 2021-02-18"),
			changelog("1.21", "v1.21.0, changelog since v1.20.0: \"When downscaling ReplicaSets, ready and "+
				"creation timestamps are compared in a logarithmic scale. (#99212)\""),
		},
	}, {
		PR: "#125459", Date: "2024",
		Known:   "opened on 2024-06-12; listed in the changes of v1.31.0 since v1.30.0",
		Brought: "LogarithmicScaleDown made GA, locked on",
		Sources: []Source{
			pull("125459", "the pull request, opened on 2024-06-12"),
			changelog("1.31", "v1.31.0, changelog since v1.30.0: \"LogarithmicScaleDown is now GA (#125459)\""),
		},
	}},
	Date: "2015-04-21",
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
	Name:   "pod-informer",
	Title:  "A pod informer instead of a pod LIST per sync",
	Issues: []string{"#6562", "#5884"},
	PRs:    []string{"#6866", "#5270", "#6546"},
	Merged: []Merge{{
		PR: "#6866", Date: "2015-04-29",
		Brought: "the manager watches pods and controllers into caches instead of polling every 10 s",
		Sources: []Source{commit("4d2f7a38c287159ff5a85cfc104be9320688fdae")},
	}, {
		PR: "#5270", Date: "2015-04-07",
		Brought: "the controller framework it is built on: a reflector filling a queue, popped into a ProcessFunc",
		Sources: []Source{commit("6eb54e73e0a338b7ad212717528badf0e962ec4a")},
	}, {
		PR: "#6546", Date: "2015-04-10",
		Brought: "the framework's informer: NewInformer, a cache, and a ResourceEventHandler told of adds, updates and deletes",
		Sources: []Source{commit("66d55e095952def65574e0ed4ead9a829f89a86a")},
	}},
	Date: "2015-04-29",
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
	Name:   "expectations",
	Title:  "Expectations: remember the creates and deletes in flight",
	Issues: []string{"#7369"},
	PRs:    []string{"#6866", "#8138", "#22143", "#22579"},
	Merged: []Merge{{
		PR: "#6866", Date: "2015-04-29",
		Brought: "expectations came with the pod informer: a controller is not synced again until the " +
			"informer has seen the creates and deletes it asked for, or two minutes pass",
		Sources: []Source{commit("4d2f7a38c287159ff5a85cfc104be9320688fdae")},
	}, {
		PR: "#8138", Date: "2015-05-18",
		Brought: "expectations checked before the active pods are counted, closing a race that created an extra pod",
		Sources: []Source{commit("c72eedf50a6b2fc6a385d158fe8cbbc2c4e2b20d")},
	}, {
		PR: "#22143", Date: "2016-02-28",
		Brought: "a graceful delete counted once, not twice",
		Sources: []Source{commit("a56bbbf8bc366143de98c60d41a645511723ce50")},
	}, {
		PR: "#22579", Date: "2016-03-06",
		Brought: "expected deletes tracked by pod UID",
		Sources: []Source{commit("c7a50206c0346079a7bf201ac42b4bcf70ff4f3f")},
	}},
	Date: "2015-04-29",
	What: "A manager reading a cache must not act on a cache that has not yet seen its own " +
		"creates and deletes, so each sync records what it asked for and the next one waits " +
		"until the informer has seen it (or, today, five minutes pass); #22579 tracks deletes by pod so a " +
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
	Name:   "burst-cap",
	Title:  "At most 500 creates or deletes per sync",
	Issues: []string{"#4866"},
	PRs:    []string{"#7869"},
	Merged: []Merge{{
		PR: "#7869", Date: "2015-05-11",
		Brought: "BurstReplicas = 500: one sync creates or deletes at most 500 pods",
		Sources: []Source{commit("0da12c1ba96b6b6deb5ef168487a3caf112fb392")},
	}},
	Date: "2015-05-11",
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
	Name:   "wait-for-caches",
	Title:  "Wait for the caches before acting",
	Issues: []string{"#10030"},
	PRs:    []string{"#10147"},
	Merged: []Merge{{
		PR: "#10147", Date: "2015-06-23",
		Brought: "a sync before the pod store has synced puts the controller back on the queue instead of counting its pods",
		Sources: []Source{commit("9b1b72ea4904fc7b6c76d998b1c827cf93bd6168")},
	}},
	Date: "2015-06-23",
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
	Name:  "leader-election",
	Title: "Leader election between controller-managers",
	PRs:   []string{"#16830", "#19621"},
	Merged: []Merge{{
		PR: "#16830", Date: "2015-12-08",
		Brought: "the leader election client, pkg/client/leaderelection",
		Sources: []Source{commit("77a5ba6c5780dd8257dcfa12f5fc4ad6b0737f49")},
	}, {
		PR: "#19621", Date: "2016-01-20",
		Brought: "kube-controller-manager's --leader-elect, off by default then",
		Sources: []Source{commit("864065be9705349d765f9cca1f0cfbec985708de")},
	}},
	Date: "2015-12-08",
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
	Name:   "rate-limited-requeue",
	Title:  "Failed syncs come back with exponential backoff",
	Issues: []string{"#30629"},
	PRs:    []string{"#24052", "#30626"},
	Merged: []Merge{{
		PR: "#24052", Date: "2016-05-14",
		Brought: "the workqueue's rate limiters: per key, exponential from 1 ms up to 1 000 s, and 10 retries " +
			"a second overall",
		Sources: []Source{commit("203b5b7c5fad9a9b25219ea865e646964e91c22c")},
	}, {
		PR: "#30626", Date: "2016-08-19",
		Brought: "the replication manager puts a failed controller back through them",
		Sources: []Source{commit("9223591cdaf8fbd67073ae154fd3c3109ccc17a7")},
	}},
	Date: "2016-05-14",
	What: "Controllers hot-looped on requests the apiserver refused; a failed sync now comes " +
		"back after 5 ms, 10 ms, 20 ms, ... up to 1 000 s (the first limiter started at 1 ms).",
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
	Merged: []Merge{{
		PR: "#24509", Date: "2016-05-18",
		Brought: "the garbage collector controller",
		Sources: []Source{commit("48c90f15c5cd95f14b6471a39364477d00079a17")},
	}, {
		PR: "#26341", Date: "2016-05-29",
		Brought: "the collector in kube-controller-manager, off by default",
		Sources: []Source{commit("825cd920ffd49f6115d0d3f38add9ea15543e875")},
	}, {
		PR: "#30480", Date: "2016-08-20",
		Brought: "the collector on by default",
		Sources: []Source{commit("c8c18b1d5c3f2caf68ec2430325d9400f98a89a0")},
	}},
	Date: "2016-05-18",
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
	Name:   "controller-ref",
	Title:  "ControllerRef: each pod has one owning controller",
	Issues: []string{"#11981"},
	PRs:    []string{"#27600", "#41361"},
	Merged: []Merge{{
		PR: "#27600", Date: "2016-07-15",
		Brought: "the replication manager sets ControllerRef on the pods it creates, adopts matching orphans " +
			"and releases pods that stop matching",
		Sources: []Source{commit("e7e434b10d3b6c617f9c4d8b3e87cd45394aaff9")},
	}, {
		PR: "#41361", Date: "2017",
		Known:   "opened on 2017-02-13 and in review on 2017-02-14; no page linked here gives its merge day",
		Brought: "adopting and releasing moved into a ControllerRefManager that every controller shares",
		Sources: []Source{pull("41361", "the pull request, opened on 2017-02-13")},
	}},
	Date: "2016-07-15",
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
	Name:   "slow-start",
	Title:  "Creates in batches of 1, 2, 4, ...",
	Issues: []string{"#47366", "#49145"},
	PRs:    []string{"#49142"},
	Merged: []Merge{{
		PR: "#49142", Date: "2017-08/09",
		Known: "still in review on 2017-08-30; reported merged on 2017-09-05 in openshift/origin#16111, " +
			"which carried it downstream; listed in the changes of v1.8.0-beta.1 since v1.8.0-alpha.3",
		Brought: "pod creates of replica sets, replication controllers, daemon sets and jobs in doubling " +
			"batches that stop at the first failure",
		Sources: []Source{
			pull("49142", "the pull request, in review on 2017-08-30"),
			{URL: "https://github.com/openshift/origin/pull/16111", Shows: "2017-09-05: \"The upstream PR has merged and will be in 1.8.\""},
			changelog("1.8", "v1.8.0-beta.1, changelog since v1.8.0-alpha.3: \"controllers backoff better in face "+
				"of quota denial (#49142)\""),
		},
	}},
	Date: "2017-08/09",
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

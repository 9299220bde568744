package pages

// The guided walk, as data: one pod followed from `kubecfg create` to
// `kubecfg list`, a stop per step. Each stop names its code by
// declaration and marks the lines its prose talks about, so the page
// follows the code as it changes. Edit here.

import "github.com/kube-rewind/kube-rewind/pkg/lab/source"

// Stop is one step of the walk.
type Stop struct {
	// ID is the stop's anchor.
	ID string
	// Part, when set, opens a new part of the walk with this heading.
	Part string
	// Title says what happens here, in a few words.
	Title string
	// Process names the program the code runs in.
	Process string
	// Explain is one paragraph in the pages' prose markup; {stop:<id>}
	// stands for a link to another stop, numbered as the page numbers it.
	Explain string
	// Both is the code when the two designs share it; Legacy and Modern
	// when they differ, each with a sentence of its own.
	Both                         []source.Ref
	Legacy, Modern               []source.Ref
	LegacyExplain, ModernExplain string
}

// WalkPage is the walk's file name.
const WalkPage = "follow-one-pod.html"

// WalkTitle is the walk's heading, and its name on the index.
const WalkTitle = "Follow one pod"

// WalkIntro opens the walk; the page follows it with its own length.
const WalkIntro = "From a command to a Running pod: `kubecfg` creates a replication controller " +
	"asking for one replica, the manager makes the pod, a hollow node binds it and marks it Running, and " +
	"`kubecfg list pods` shows it. Each stop shows the code of one step, from one to three files; its " +
	"highlighted lines are the ones its text talks about, with the lines that open each function and " +
	"statement around them. Where the " +
	"2014 manager and today's design (`-tags modern`) part ways, both are shown. The excerpts are cut from " +
	"the source by declaration name when this page is built."

// Walk is the walk's stops, in order.
var Walk = []Stop{
	{
		ID: "kubecfg", Part: "1 · kubecfg writes a replication controller",
		Title: "kubecfg parses its flags", Process: "kubecfg",
		Explain: "`kubecfg -c rc.json create replicationControllers` starts here. Its single-dash flags are " +
			"parsed: `-c` names the file, `-h` the apiserver. Without `-h` the host is `$KUBERNETES_MASTER`, " +
			"and without that http://localhost:8080, as in v0.4. A client is built for the host, and the " +
			"arguments go to `ExecuteAPIRequest`, which knows the REST verbs.",
		Both: []source.Ref{{Dir: "cmd/kubecfg", Name: "run", Mark: []string{`fs.String("h", "", "The host to connect to.")`, `fs.StringVar(&opts.Config, "c"`, "fs.Parse(args)", `os.Getenv("KUBERNETES_MASTER")`, `config.Host = "http://localhost:8080"`, "client.New(config)", "kubecfg.ExecuteAPIRequest("}}},
	},
	{
		ID: "command", Title: "create becomes a POST", Process: "kubecfg",
		Explain: "`create` is a POST to the collection the argument names. The file is read and decoded " +
			"before anything is sent, the JSON becomes the body, and the answer is printed as a table, the " +
			"same way `list` prints.",
		Both: []source.Ref{{Dir: "pkg/kubecfg", Name: "ExecuteAPIRequest", Mark: []string{`verb = "POST"`, "r := c.Verb(verb)", "r.Body(data)", "obj, err := r.Do().Get()"}}},
	},
	{
		ID: "client", Title: "the client sends it, and polls if told to wait", Process: "kubecfg",
		Explain: "`Do` sends one HTTP request. A write the apiserver has not finished within its short wait " +
			"comes back as 202 with an operation id; `Do` then sleeps the poll period (2 s) and asks " +
			"`/operations/<id>`, again and again for as long as the answer is that the write is still working. " +
			"Like v0.4's, the client sets no time limit of its own on that wait.",
		Both: []source.Ref{{Dir: "pkg/client", Name: "Request.Do", Mark: []string{"r.c.doRequest(req)", "id, working := operationID(err)", "sleep(r.context(), r.pollPeriod)", "r.c.PollFor(id)"}}},
	},
	{
		ID: "resthandler", Title: "the apiserver's REST handler", Process: "apiserver",
		Explain: "`POST /api/v1beta1/replicationControllers` reaches the handler of the storage registered " +
			"under that name (`pkg/master` maps each resource to its registry). The body is decoded into the " +
			"storage's own type and handed to `Create`, which returns a channel. The handler waits for it " +
			"up to `AsyncOpWait`, which is `asyncOpWait`, 25 ms, as in v0.4 (a request with `sync=true` waits " +
			"up to its `timeout` instead), then answers 200 with the object, or 202 with an operation to poll.",
		Both: []source.Ref{
			{Dir: "pkg/apiserver", Name: "RESTHandler.create", Mark: []string{"h.server.decodeBody(w, req, storage)", "storage.Create(writeContext(), obj)", "h.finishReq(w, h.createOperation("}},
			{Dir: "pkg/apiserver", Name: "asyncOpWait", Mark: []string{"asyncOpWait = 25 * time.Millisecond"}},
			{Dir: "pkg/apiserver", Name: "RESTHandler.createOperation", Mark: []string{"op.WaitFor(timeout)", "op.WaitFor(h.server.opts.AsyncOpWait)"}},
			{Dir: "pkg/apiserver", Name: "RESTHandler.finishReq", Mark: []string{"writeJSON(w, http.StatusAccepted, obj)", "writeJSON(w, code, obj)"}},
		},
	},
	{
		ID: "registry", Title: "the controller registry checks and fills it", Process: "apiserver",
		Explain: "Each resource has a REST storage of the same shape. This one gives a controller without " +
			"an id one made from the time, validates it, and does the write itself inside `MakeAsync`, so " +
			"the handler can stop waiting without stopping the write.",
		Both: []source.Ref{{Dir: "pkg/registry/controller", Name: "REST.Create", Mark: []string{"registry.NewTimeBasedID()", "validation.ValidateReplicationController(controller)", "apiserver.MakeAsync("}}},
	},
	{
		ID: "async", Title: "the write runs in a goroutine", Process: "apiserver",
		Explain: "`MakeAsync` runs the storage work in a goroutine and delivers its result, or its error as " +
			"a Status, on a channel of one. This is the channel the handler waited 25 ms on; when the wait " +
			"ran out, an operation keeps reading it for the client that polls.",
		Both: []source.Ref{{Dir: "pkg/apiserver", Name: "MakeAsync", Mark: []string{"go func() {", "obj, err := fn()"}}},
	},
	{
		ID: "etcd-registry", Title: "one key per controller", Process: "apiserver",
		Explain: "The etcd registry turns the id into a key, `/registry/controllers/<id>`, refusing ids that " +
			"could escape it, and creates the key.",
		Both: []source.Ref{{Dir: "pkg/registry/etcd", Name: "Registry.CreateController", Mark: []string{"makeControllerKey(controller.ID)", "r.CreateObj(key, controller)"}}},
	},
	{
		ID: "etcdhelper", Title: "JSON into etcd", Process: "apiserver → etcd",
		Explain: "`CreateObj` encodes the object as JSON and asks etcd to create the key, which fails if it " +
			"exists. etcd's index for the new node becomes the object's `resourceVersion`. etcd is a member " +
			"embedded in the apiserver process here (`pkg/etcd`), speaking the v2 API 2014's client spoke.",
		Both: []source.Ref{{Dir: "pkg/tools", Name: "EtcdHelper.CreateObj", Mark: []string{"encode(obj)", "create(h.Client, key, string(data))", "setVersionFrom(obj, response)"}}},
	},
	{
		ID: "etcd-watch", Part: "2 · the watch carries it to the manager",
		Title: "etcd's change becomes a watch event", Process: "apiserver",
		Explain: "The manager has a watch open on `/registry/controllers`: a long poll on etcd that the " +
			"watcher turns into events. A node created at this index is ADDED, any later write MODIFIED; " +
			"values that do not decode are skipped rather than ending the watch.",
		Both: []source.Ref{{Dir: "pkg/tools", Name: "etcdWatcher.sendAdd", Mark: []string{"decodeObject(res.Node.Value", "cannot decode %s at index %d, skipped", "action := watch.Added", "w.emit(watch.Event{Type: action"}}},
	},
	{
		ID: "watch-server", Title: "one JSON line per event", Process: "apiserver",
		Explain: "`GET /api/v1beta1/watch/replicationControllers` stays open: every event is written as one " +
			"JSON object and flushed at once. An ERROR event (the version asked for is gone from etcd's " +
			"window) is the last thing a stream says.",
		Both: []source.Ref{{Dir: "pkg/apiserver", Name: "WatchServer.ServeHTTP", Mark: []string{"encoder.Encode(&event)", "\t\t\tflusher.Flush()", "if event.Type == watch.Error {"}}},
	},
	{
		ID: "client-watch", Title: "the client reads the stream", Process: "controller-manager",
		Explain: "A watch is a GET with the resourceVersion to start after and two selectors; " +
			"`Request.Watch` decodes the JSON lines back into events on a channel.",
		Both: []source.Ref{{Dir: "pkg/client", Name: "Client.watch", Mark: []string{`Path("watch")`, `UintParam("resourceVersion", resourceVersion)`, "Watch()"}}},
	},
	{
		ID: "manager-event", Title: "the manager takes the event", Process: "controller-manager",
		Explain: "Here the two designs part.",
		LegacyExplain: "One goroutine serves the watch and the 10 s tick. The ADDED controller is synced at " +
			"once, inside the watch loop, from the event's copy.",
		ModernExplain: "A shared informer lists and then watches controllers through the same client, keeps " +
			"them in a cache and calls `addRC`, which queues the key `namespace/name`. A worker takes the " +
			"key off the rate-limited queue and syncs it.",
		Legacy: []source.Ref{{Dir: "pkg/controller", Name: "ReplicationManager.watchControllers", Mark: []string{"case <-rm.syncTime:", "case event, open := <-watching.ResultChan():", "rc, ok := event.Object.(*api.ReplicationController)", "rm.syncHandler(*rc)"}}},
		Modern: []source.Ref{
			{Dir: "pkg/controller", Name: "ReplicationManager.addRC", Mark: []string{"rm.enqueueRC(rc, SyncController)"}},
			{Dir: "pkg/controller", Name: "ReplicationManager.processNextWorkItem", Mark: []string{"rm.queue.Get()", "rm.syncHandler(withSyncCause(ctx, cause), key)"}},
		},
	},
	{
		ID: "sync", Title: "the sync counts the pods and decides", Process: "controller-manager",
		Explain: "The `syncHandler` that {stop:manager-event} called is `syncReplicationController`, kept in " +
			"a field, as in v0.4, so that tests can put another function in its place. Desired replicas 1, " +
			"pods found 0: one to create.",
		LegacyExplain: "The sync asks the apiserver for the pods matching the selector (a LIST that reads " +
			"every pod in etcd) and starts one goroutine per missing pod.",
		ModernExplain: "The sync reads the pods from the informer's cache and sends no request. It records " +
			"that it expects one creation before making it, then creates in slow-start batches.",
		Legacy: []source.Ref{{Dir: "pkg/controller", Name: "ReplicationManager.syncReplicationController", Mark: []string{"rm.kubeClient.ListPods(ctx, s)", "diff := len(filteredList)", "go func() {", "rm.podControl.createReplica(ctx, controllerSpec)"}}},
		Modern: []source.Ref{
			{Dir: "pkg/controller", Name: "ReplicationManager.syncReplicationController", Mark: []string{"rm.listPods(ctx, rc.Namespace)", "rm.manageReplicas(ctx, filteredPods, rc)"}},
			{Dir: "pkg/controller", Name: "ReplicationManager.manageReplicas", Mark: []string{"rm.expectations.ExpectCreations(rcKey, diff)", "slowStartBatch(diff"}},
		},
	},
	{
		ID: "pod-control", Title: "the pod is posted", Process: "controller-manager",
		Explain: "Both designs build the pod from the controller's template and post it with the same " +
			"`client.CreatePod`: a POST to `/pods` that travels the way of {stop:client} and {stop:resthandler}.",
		LegacyExplain: "The pod carries the template's labels plus `replicationController=<id>`; an error " +
			"is logged and forgotten until the next sync.",
		ModernExplain: "The pod carries a ControllerRef naming its owner, and is converted from the v1 type " +
			"the informers hold to the 2014 API at this boundary.",
		Legacy: []source.Ref{{Dir: "pkg/controller", Name: "RealPodControl.createReplica", Mark: []string{"replicaLabels(controllerSpec)", "r.kubeClient.CreatePod(ctx, pod)", `glog.Errorf("%#v\n", err)`}}},
		Modern: []source.Ref{{Dir: "pkg/controller", Name: "RealPodControl.CreatePods", Mark: []string{"getPodFromTemplate(template, object, controllerRef)", "r.KubeClient.CreatePod(nsCtx"}}},
	},
	{
		ID: "pod-registry", Part: "3 · the pod is stored, bound and started",
		Title: "the pod registry names it", Process: "apiserver",
		Explain: "Every pod gets a time-based UUID for its manifest, and a pod that arrives without an id, as " +
			"this one does, takes that UUID as its id. The registry validates it and writes it inside " +
			"`MakeAsync`, like the controller before it.",
		Both: []source.Ref{{Dir: "pkg/registry/pod", Name: "REST.Create", Mark: []string{"registry.NewTimeBasedID()", "pod.ID = pod.DesiredState.Manifest.UUID", "validation.ValidatePod(pod)", "apiserver.MakeAsync(", "rs.registry.CreatePod(ctx, pod)"}}},
	},
	{
		ID: "etcd-pod", Title: "stored as Waiting, with no host", Process: "apiserver → etcd",
		Explain: "The pod is stored at `/registry/pods/<id>` with no host and the status Waiting: an empty " +
			"host is what asks for scheduling. The create goes through `CreateObj` as in {stop:etcdhelper}, and " +
			"etcd's change goes out on every pod watch as in {stop:etcd-watch} to {stop:client-watch}.",
		Both: []source.Ref{{Dir: "pkg/registry/etcd", Name: "Registry.CreatePod", Mark: []string{"makePodKey(pod.ID)", "pod.CurrentState.Status = api.PodWaiting", `pod.DesiredState.Host = ""`, "r.CreateObj(key, pod)"}}},
	},
	{
		ID: "manager-sees-pod", Title: "does the manager see its pod?", Process: "controller-manager",
		Explain: "The manager must count the new pod before it syncs again, or it creates another.",
		LegacyExplain: "No: 2014's manager does not watch pods. It counts the pod at the next 10 s tick, " +
			"when `synchronize` lists every controller and syncs each, and each sync lists its pods again.",
		ModernExplain: "Yes: the pod informer's ADDED event reaches `addPod`, which finds the owner from the " +
			"ControllerRef, marks the expected creation as seen and queues the controller.",
		Legacy: []source.Ref{{Dir: "pkg/controller", Name: "ReplicationManager.synchronize", Mark: []string{"rm.kubeClient.ListReplicationControllers(ctx", "rm.syncHandler(controllerSpecs[ix])"}}},
		Modern: []source.Ref{{Dir: "pkg/controller", Name: "ReplicationManager.addPod", Mark: []string{"metav1.GetControllerOf(pod)", "rm.expectations.CreationObserved(rcKey)", "rm.add(rcKey, SyncPod)"}}},
	},
	{
		ID: "hollow-node", Title: "a hollow node binds it and starts it", Process: "hollow-node",
		Explain: "The hollow nodes stand in for 2014's scheduler and kubelets, which this project does not " +
			"run. They watch pods; a pod without a host is bound to the node with the fewest pods (a POST " +
			"to `/bindings`, the scheduler's one write), and a bound pod is marked Running, with a host IP " +
			"and a pod IP, after a start delay (a PUT of the pod, what a kubelet would have reported). Binds " +
			"and starts wait in a queue each, so a start never waits behind the binds queued before it.",
		Both: []source.Ref{
			{Dir: "pkg/lab/hollownode", Name: "Cluster.observe", Mark: []string{`case pod.DesiredState.Host == "":`, "h.queue.Add(pod.ID)", "h.starts.AddAfter(pod.ID, h.cfg.StartDelay)"}},
			{Dir: "pkg/lab/hollownode", Name: "Cluster.bind", Mark: []string{"host := h.pickNode(pod.ID)", "h.client.CreateBinding(ctx"}},
			{Dir: "pkg/lab/hollownode", Name: "Cluster.start", Mark: []string{"updated.CurrentState.HostIP =", "updated.CurrentState.Status = api.PodRunning", "updated.CurrentState.PodIP =", "h.update(ctx, &updated)"}},
		},
	},
	{
		ID: "binding", Title: "the binding sets the host", Process: "apiserver",
		Explain: "`POST /bindings` writes nothing of its own: `ApplyBinding` sets the pod's desired host " +
			"through `AtomicUpdate`, which reads the pod with its etcd index, lets the function change it, and " +
			"writes it back with a compare-and-swap at that index; if another write came first, the swap fails " +
			"and the whole read-change-write starts again. A pod already bound to another host is refused " +
			"(409).",
		Both: []source.Ref{
			{Dir: "pkg/registry/binding", Name: "REST.Create", Mark: []string{"rs.registry.ApplyBinding(ctx, binding)"}},
			{Dir: "pkg/registry/etcd", Name: "Registry.ApplyBinding", Mark: []string{"r.AtomicUpdate(key, &api.Pod{}", `pod.DesiredState.Host != "" && pod.DesiredState.Host != binding.Host`, "pod.DesiredState.Host = binding.Host"}},
			{Dir: "pkg/tools", Name: "EtcdHelper.AtomicUpdate", Mark: []string{"h.bodyAndExtractObj(key, obj, true)", "ret, err := tryUpdate(obj)", "h.Client.CompareAndSwap(key, string(data), 0, \"\", index)", "if IsEtcdTestFailed(err) {"}},
		},
	},
	{
		ID: "running", Title: "the hollow node's PUT stores Running", Process: "apiserver → etcd",
		Explain: "The hollow node's PUT of the pod ({stop:hollow-node}) goes the way of {stop:resthandler} to " +
			"the pod storage's `Update`, which validates the pod and calls `UpdatePod` inside `MakeAsync`. " +
			"`UpdatePod` keeps the host the binding set and writes the pod with `SetObj`: a compare-and-swap " +
			"at the resourceVersion the hollow node read. A PUT made from an older read fails with 409, and " +
			"the hollow node lets it go: its watch brings the newer pod, which it looks at again.",
		Both: []source.Ref{
			{Dir: "pkg/registry/pod", Name: "REST.Update", Mark: []string{"validation.ValidatePod(pod)", "rs.registry.UpdatePod(ctx, pod)"}},
			{Dir: "pkg/registry/etcd", Name: "Registry.UpdatePod", Mark: []string{"pod.DesiredState.Host = old.DesiredState.Host", "r.SetObj(key, pod)"}},
			{Dir: "pkg/tools", Name: "EtcdHelper.SetObj", Mark: []string{`h.Client.CompareAndSwap(key, string(data), 0, "", version)`}},
		},
	},
	{
		ID: "list", Part: "4 · kubecfg list pods",
		Title: "a LIST reads every pod", Process: "apiserver",
		Explain: "`kubecfg list pods` is a GET through {stop:command} to {stop:resthandler}. The pod registry reads and decodes " +
			"every pod under `/registry/pods` and only then applies the selectors: etcd cannot select by " +
			"label.",
		Both: []source.Ref{{Dir: "pkg/registry/etcd", Name: "Registry.ListPodsPredicate", Mark: []string{"r.ExtractList(podsPrefix", "if filter(&list.Items[i])"}}},
	},
	{
		ID: "pod-status", Title: "each pod's status is computed on the way out", Process: "apiserver",
		Explain: "The pod storage's `List` then goes over the pods one by one and computes what v0.4 computed " +
			"at read time (it is on by default, as then; the apiserver's `-read_pod_status=false` reads pods as " +
			"stored). The current host is the desired host. A pod without a host is Waiting; a bound pod costs " +
			"one LIST of every minion, which the apiserver sends to itself, and is Terminated if its host is not " +
			"among them; otherwise the status its hollow node stored, Running, stands for what the kubelet " +
			"reported. A LIST of 1 000 bound pods sends 1 000 minion LISTs.",
		Both: []source.Ref{
			{Dir: "pkg/registry/pod", Name: "REST.List", Mark: []string{"rs.registry.ListPodsPredicate(ctx", "rs.fillStatus(&pods.Items[i])"}},
			{Dir: "pkg/registry/pod", Name: "REST.fillStatus", Mark: []string{"pod.CurrentState.Host = pod.DesiredState.Host", "rs.podStatus(pod)", "pod.CurrentState.Status = status"}},
			{Dir: "pkg/registry/pod", Name: "REST.podStatus", Mark: []string{"return api.PodWaiting, nil", "rs.minions.ListMinions()", "if minion.ID == pod.CurrentState.Host {", "return api.PodTerminated, nil", "return pod.CurrentState.Status, nil"}},
		},
	},
	{
		ID: "printer", Title: "and there it is: Running", Process: "kubecfg",
		Explain: "kubecfg prints one row per pod: id, image, host/host IP, labels and status. The pod named in " +
			"{stop:pod-registry} shows its hollow node's name and IP, and Running.",
		Both: []source.Ref{{Dir: "pkg/kubecfg", Name: "printPod", Mark: []string{"podHostString(pod.CurrentState.Host", "pod.CurrentState.Status"}}},
	},
}

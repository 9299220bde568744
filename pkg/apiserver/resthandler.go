package apiserver

// Follows kubernetes/kubernetes pkg/apiserver/resthandler.go as of v0.4
// (October 2014): one handler dispatches on method and path length to the
// storage's List, Get, Create, Update and Delete, and writes wait for their
// result only briefly before handing back an operation to poll.

import (
	"fmt"
	"net/http"
	"reflect"
	"time"

	"github.com/gorilla/mux"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
)

// RESTHandler serves <prefix>/<resource>[/<id>] from the storage map.
type RESTHandler struct {
	server *apiServer
}

// ServeHTTP dispatches on method and on whether the path names an object:
//
//	GET     /<resource>        list (query labels=, fields=)
//	GET     /<resource>/<id>   get
//	POST    /<resource>        create
//	PUT     /<resource>/<id>   update
//	DELETE  /<resource>/<id>   delete
//
// Writes take the query parameters sync=true and timeout=<duration>.
func (h *RESTHandler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	vars := mux.Vars(req)
	resource := vars["resource"]
	id, hasID := vars["id"]
	storage := h.server.storage[resource]
	if storage == nil {
		h.server.unknownResource(w, resource)
		return
	}

	// A collection (no id) takes GET, which lists, and POST; an object
	// (an id) takes GET, PUT and DELETE.
	//
	// Ours: v0.4 answered any other method with a plain-text 404. A 405
	// Status naming the allowed methods tells the caller what to fix.
	verb := methodVerb(req.Method)
	if verb == verbGet && !hasID {
		verb = verbList
	}
	label(w, verb, resource)
	if !hasID && verb != verbList && verb != verbPost {
		methodNotAllowed(w, req, "GET, POST", "PUT and DELETE need an id: "+h.server.prefix+"/"+resource+"/{id}")
		return
	}
	if hasID && verb != verbGet && verb != verbPut && verb != verbDelete {
		methodNotAllowed(w, req, "GET, PUT, DELETE", "POST creates in the collection: "+h.server.prefix+"/"+resource)
		return
	}
	if err := checkQuery(req); err != nil {
		errorJSON(w, err)
		return
	}

	switch verb {
	case verbList:
		h.list(w, req, storage, resource)
	case verbGet:
		h.get(w, req, storage, resource, id)
	case verbPost:
		h.create(w, req, storage, resource)
	case verbPut:
		h.update(w, req, storage, resource, id)
	case verbDelete:
		h.delete(w, req, storage, id)
	}
}

// readContext is the context of reads: the default namespace, as v0.4
// used for every call, cancelled when the client goes away.
func readContext(req *http.Request) api.Context {
	return api.WithNamespace(req.Context(), api.NamespaceDefault)
}

// writeContext is the context of writes. It is not tied to the request: a
// write outlives the request when it answers 202, and must not be cut
// short when the client stops waiting.
func writeContext() api.Context {
	return api.NewDefaultContext()
}

func (h *RESTHandler) list(w http.ResponseWriter, req *http.Request, storage RESTStorage, resource string) {
	query := req.URL.Query()
	label, err := parseSelector("labels", query.Get("labels"))
	if err != nil {
		errorJSON(w, err)
		return
	}
	field, err := parseSelector("fields", query.Get("fields"))
	if err != nil {
		errorJSON(w, err)
		return
	}
	list, err := storage.List(readContext(req), label, field)
	if err != nil {
		errorJSON(w, err)
		return
	}
	setSelfLink(list, h.server.prefix+"/"+resource)
	writeList(w, list)
}

func (h *RESTHandler) get(w http.ResponseWriter, req *http.Request, storage RESTStorage, resource, id string) {
	item, err := storage.Get(readContext(req), id)
	if err != nil {
		errorJSON(w, err)
		return
	}
	setSelfLink(item, h.server.prefix+"/"+resource+"/"+id)
	writeJSON(w, http.StatusOK, item)
}

func (h *RESTHandler) create(w http.ResponseWriter, req *http.Request, storage RESTStorage, resource string) {
	sync, timeout, err := parseWriteParams(req)
	if err != nil {
		errorJSON(w, err)
		return
	}
	obj, err := h.server.decodeBody(w, req, storage)
	if err != nil {
		errorJSON(w, err)
		return
	}
	out, err := storage.Create(writeContext(), obj)
	if err != nil {
		errorJSON(w, err)
		return
	}
	base := h.server.prefix + "/" + resource + "/"
	onReceive := func(result api.Object) {
		if meta, ok := objectMeta(result); ok {
			setSelfLink(result, base+meta.ID)
		}
	}
	h.finishReq(w, h.createOperation(out, sync, timeout, onReceive))
}

func (h *RESTHandler) update(w http.ResponseWriter, req *http.Request, storage RESTStorage, resource, id string) {
	sync, timeout, err := parseWriteParams(req)
	if err != nil {
		errorJSON(w, err)
		return
	}
	obj, err := h.server.decodeBody(w, req, storage)
	if err != nil {
		errorJSON(w, err)
		return
	}
	// Ours: v0.4 ignored the id in the path and updated whatever the body
	// named, so PUT /pods/a with a body for b changed b. Here a body
	// without an id takes the path's, and two different ids are refused.
	meta := obj.GetTypeMeta()
	switch {
	case meta.ID == "":
		meta.ID = id
	case meta.ID != id:
		errorJSON(w, errors.NewBadRequest(fmt.Sprintf(
			"the id in the path (%q) and the id in the body (%q) differ", id, meta.ID)))
		return
	}
	out, err := storage.Update(writeContext(), obj)
	if err != nil {
		errorJSON(w, err)
		return
	}
	self := h.server.prefix + "/" + resource + "/" + id
	onReceive := func(result api.Object) { setSelfLink(result, self) }
	h.finishReq(w, h.createOperation(out, sync, timeout, onReceive))
}

func (h *RESTHandler) delete(w http.ResponseWriter, req *http.Request, storage RESTStorage, id string) {
	sync, timeout, err := parseWriteParams(req)
	if err != nil {
		errorJSON(w, err)
		return
	}
	out, err := storage.Delete(writeContext(), id)
	if err != nil {
		errorJSON(w, err)
		return
	}
	h.finishReq(w, h.createOperation(out, sync, timeout, nil))
}

// createOperation tracks the result channel of a write and waits for it:
// up to timeout when the caller asked for sync, else up to AsyncOpWait.
func (h *RESTHandler) createOperation(out <-chan api.Object, sync bool, timeout time.Duration, onReceive func(api.Object)) *Operation {
	op := h.server.ops.NewOperation(out, onReceive)
	if sync {
		op.WaitFor(timeout)
	} else {
		op.WaitFor(h.server.opts.AsyncOpWait)
	}
	return op
}

// finishReq answers with the result if the operation is done, with the
// Status's own code when the result is an error Status; otherwise it
// publishes the operation and answers 202 with its id.
func (h *RESTHandler) finishReq(w http.ResponseWriter, op *Operation) {
	obj, complete := op.StatusOrResult()
	if !complete {
		h.server.ops.insert(op)
		writeJSON(w, http.StatusAccepted, obj)
		return
	}
	code := http.StatusOK
	if status, ok := obj.(*api.Status); ok && status.Code != 0 {
		code = status.Code
	}
	writeJSON(w, code, obj)
}

// parseWriteParams reads sync and timeout from the query.
//
// Ours: v0.4 logged an unparsable timeout and waited 30s anyway; here it is
// a 400, so a typo does not silently turn into a different wait.
func parseWriteParams(req *http.Request) (sync bool, timeout time.Duration, err error) {
	query := req.URL.Query()
	sync = query.Get("sync") == "true"
	timeout = defaultSyncTimeout
	if s := query.Get("timeout"); s != "" {
		timeout, err = time.ParseDuration(s)
		if err != nil {
			return false, 0, errors.NewBadRequest(fmt.Sprintf("timeout %q is not a duration such as 30s: %v", s, err))
		}
		if timeout < 0 {
			return false, 0, errors.NewBadRequest(fmt.Sprintf("timeout %q is negative", s))
		}
	}
	return sync, timeout, nil
}

// setSelfLink fills the selfLink of an object the storage returned.
//
// Ours: v0.4 also stamped a link on the Status a write returned, pointing
// at the collection; a Status is not an object with a home, so it is left
// alone here.
func setSelfLink(obj api.Object, link string) {
	if _, isStatus := obj.(*api.Status); isStatus {
		return
	}
	if meta, ok := objectMeta(obj); ok {
		meta.SelfLink = link
	}
}

// objectMeta returns the header of obj, or false for a nil object, which a
// faulty storage might return.
func objectMeta(obj api.Object) (*api.TypeMeta, bool) {
	if obj == nil {
		return nil, false
	}
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, false
	}
	return obj.GetTypeMeta(), true
}

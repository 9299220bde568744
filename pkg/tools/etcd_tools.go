package tools

// Follows kubernetes/kubernetes pkg/tools/etcd_tools.go as of v0.4 (October
// 2014): objects are stored as their v1beta1 JSON, an object's
// resourceVersion is the ModifiedIndex of its etcd node, and writes that must
// not lose a concurrent change use etcd's compare-and-swap on that index.

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"runtime"
	"sync"
	"unsafe"

	"github.com/coreos/go-etcd/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
)

// EtcdClient is the part of go-etcd's *etcd.Client that EtcdHelper uses, so
// that tests can put a FakeEtcdClient in its place.
type EtcdClient interface {
	Get(key string, sort, recursive bool) (*etcd.Response, error)
	Set(key, value string, ttl uint64) (*etcd.Response, error)
	Create(key, value string, ttl uint64) (*etcd.Response, error)
	CompareAndSwap(key, value string, ttl uint64, prevValue string, prevIndex uint64) (*etcd.Response, error)
	Delete(key string, recursive bool) (*etcd.Response, error)
	// Watch mirrors go-etcd, which takes bidirectional channels: with a
	// receiver it keeps watching, sending every change on receiver, until
	// stop fires or an error occurs, and closes receiver when it returns.
	Watch(prefix string, waitIndex uint64, recursive bool, receiver chan *etcd.Response, stop chan bool) (*etcd.Response, error)
}

var _ EtcdClient = &etcd.Client{}

// EtcdHelper reads and writes API objects in etcd.
type EtcdHelper struct {
	Client EtcdClient
}

// ExtractList decodes every value directly under key into a new element of
// the slice slicePtr points to. Each element's resourceVersion is its node's
// ModifiedIndex; *resourceVersion (when not nil) receives the etcd index the
// listing was taken at. A key that does not exist yields an empty list.
func (h *EtcdHelper) ExtractList(key string, slicePtr interface{}, resourceVersion *uint64) error {
	pv := reflect.ValueOf(slicePtr)
	if pv.Kind() != reflect.Pointer || pv.Elem().Kind() != reflect.Slice {
		// A programming error, as in 2014.
		panic("need ptr to slice")
	}
	nodes, index, err := h.listEtcdNode(key)
	if resourceVersion != nil {
		*resourceVersion = index
	}
	if err != nil {
		return err
	}
	v := pv.Elem()
	elemType := v.Type().Elem()
	items := reflect.MakeSlice(v.Type(), len(nodes), len(nodes))
	if err := decodeNodes(nodes, items, elemType); err != nil {
		return err
	}
	if v.Len() == 0 {
		// Ours: appending to an empty slice would copy every decoded
		// item once more, a large copy for 150 000 pods.
		v.Set(items)
		return nil
	}
	v.Set(reflect.AppendSlice(v, items))
	return nil
}

// listEtcdNode returns the value nodes directly under key and the etcd
// index of the listing. A missing key is an empty list at the index etcd
// reported in its "not found" error.
func (h *EtcdHelper) listEtcdNode(key string) ([]*etcd.Node, uint64, error) {
	result, err := getList(h.Client, key)
	if err != nil {
		index, _ := etcdErrorIndex(err)
		if IsEtcdNotFound(err) {
			return nil, index, nil
		}
		return nil, index, err
	}
	if result.Node == nil {
		return nil, result.EtcdIndex, nil
	}
	nodes := make([]*etcd.Node, 0, len(result.Node.Nodes))
	for _, node := range result.Node.Nodes {
		if !node.Dir {
			nodes = append(nodes, node)
		}
	}
	return nodes, result.EtcdIndex, nil
}

// parallelDecodeMin is the list length from which decoding is spread over
// every CPU.
const parallelDecodeMin = 256

// decodeNodes decodes nodes[i] into items[i].
//
// Ours: v0.4 decoded one node after the other. Decoding is the largest
// part of a LIST (measured once, for 10 000 pods, when pkg/tools was
// ported in f1ef0a1: more CPU to decode than to fetch and parse etcd's
// answer), and every legacy sync lists pods, so long lists are split into
// one chunk per CPU. The result is the same: items stay in etcd's order, and a bad value
// still fails the whole list.
func decodeNodes(nodes []*etcd.Node, items reflect.Value, elemType reflect.Type) error {
	decodeOne := func(i int) error {
		obj, ok := items.Index(i).Addr().Interface().(api.Object)
		if !ok {
			return fmt.Errorf("%v is not an API object", elemType)
		}
		if err := api.DecodeInto(stringBytes(nodes[i].Value), obj); err != nil {
			return fmt.Errorf("cannot decode %s: %v", nodes[i].Key, err)
		}
		obj.GetTypeMeta().ResourceVersion = nodes[i].ModifiedIndex
		return nil
	}
	workers := runtime.GOMAXPROCS(0)
	if len(nodes) < parallelDecodeMin || workers < 2 {
		for i := range nodes {
			if err := decodeOne(i); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, workers)
	chunk := (len(nodes) + workers - 1) / workers
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, len(nodes))
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func(w, lo, hi int) {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				if err := decodeOne(i); err != nil {
					errs[w] = err
					return
				}
			}
		}(w, lo, hi)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// stringBytes returns the bytes of s without copying them, for decoders
// that only read their input.
//
// Ours: v0.4 copied every value it decoded; a LIST of 150 000 pods copied
// about as much as etcd's whole answer that way.
func stringBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// ExtractObj decodes the value at key into objPtr and sets its
// resourceVersion. When the key does not exist it returns the etcd "not
// found" error, or, with ignoreNotFound, leaves objPtr zeroed and returns
// nil.
func (h *EtcdHelper) ExtractObj(key string, objPtr api.Object, ignoreNotFound bool) error {
	_, _, err := h.bodyAndExtractObj(key, objPtr, ignoreNotFound)
	return err
}

func (h *EtcdHelper) bodyAndExtractObj(key string, objPtr api.Object, ignoreNotFound bool) (body string, modifiedIndex uint64, err error) {
	response, err := h.Client.Get(key, false, false)
	if err != nil && !IsEtcdNotFound(err) {
		return "", 0, err
	}
	if err != nil || response.Node == nil || len(response.Node.Value) == 0 {
		if ignoreNotFound {
			pv := reflect.ValueOf(objPtr)
			pv.Elem().Set(reflect.Zero(pv.Type().Elem()))
			return "", 0, nil
		}
		if err != nil {
			return "", 0, err
		}
		return "", 0, fmt.Errorf("key %q holds no value: %#v", key, response.Node)
	}
	body = response.Node.Value
	if err := api.DecodeInto(stringBytes(body), objPtr); err != nil {
		return "", 0, fmt.Errorf("cannot decode %s: %v", key, err)
	}
	objPtr.GetTypeMeta().ResourceVersion = response.Node.ModifiedIndex
	return body, response.Node.ModifiedIndex, nil
}

// encode returns the stored form of obj: its JSON without a
// resourceVersion, which etcd keeps as the node's index instead.
func encode(obj api.Object) ([]byte, error) {
	meta := obj.GetTypeMeta()
	version := meta.ResourceVersion
	meta.ResourceVersion = 0
	data, err := api.Encode(obj)
	meta.ResourceVersion = version
	if err == nil && len(data) > MaxObjectBytes {
		return nil, apierrors.NewStatus(http.StatusRequestEntityTooLarge, api.StatusReasonRequestEntityTooLarge,
			fmt.Sprintf("%s %q is %d bytes once encoded, more than the %d an object may take", api.KindOf(obj), meta.ID, len(data), MaxObjectBytes))
	}
	return data, err
}

// MaxObjectBytes bounds an object as stored: its JSON, which may be six
// times its request body, since the encoder writes '<', '>' and '&' as
// \u003c and so on.
//
// Ours: v0.4 stored whatever it encoded. A pod whose 3 MiB body held only
// '<' became six times that in etcd and a watch event longer than any
// client would read (pkg/watch/json.MaxEventBytes, 4 MiB): every watcher
// of pods then failed on that event, watched again from before it, and
// failed again, for good. Objects are bounded here, below that limit with
// room for the event around them.
const MaxObjectBytes = 3 << 20

// CreateObj stores obj at key unless the key exists (etcd error 105). obj
// must not carry a resourceVersion; on success it gets the new node's.
//
// Ours: v0.4 left obj's resourceVersion alone and callers read the object
// back; setting it here (also in SetObj and AtomicUpdate) saves them
// nothing today but costs nothing either.
func (h *EtcdHelper) CreateObj(key string, obj api.Object) error {
	if obj.GetTypeMeta().ResourceVersion != 0 {
		return errors.New("resourceVersion may not be set on objects to be created")
	}
	data, err := encode(obj)
	if err != nil {
		return err
	}
	response, err := create(h.Client, key, string(data))
	if err != nil {
		return err
	}
	setVersionFrom(obj, response)
	return nil
}

func setVersionFrom(obj api.Object, response *etcd.Response) {
	if response != nil && response.Node != nil {
		obj.GetTypeMeta().ResourceVersion = response.Node.ModifiedIndex
	}
}

// Delete removes key; recursive removes a directory and all under it.
func (h *EtcdHelper) Delete(key string, recursive bool) error {
	_, err := h.Client.Delete(key, recursive)
	return err
}

// SetObj stores obj at key. When obj carries a resourceVersion the write is
// a compare-and-swap on that index (a stale one fails with etcd error 101);
// without one it is a create (an existing key fails with 105). On success
// obj gets the node's new resourceVersion.
func (h *EtcdHelper) SetObj(key string, obj api.Object) error {
	data, err := encode(obj)
	if err != nil {
		return err
	}
	var response *etcd.Response
	if version := obj.GetTypeMeta().ResourceVersion; version != 0 {
		response, err = h.Client.CompareAndSwap(key, string(data), 0, "", version)
	} else {
		response, err = h.Client.Create(key, string(data), 0)
	}
	if err != nil {
		return err
	}
	setVersionFrom(obj, response)
	return nil
}

// EtcdUpdateFunc returns the new state of an object given its current one;
// an error stops AtomicUpdate without writing.
type EtcdUpdateFunc func(input api.Object) (output api.Object, err error)

// AtomicUpdate reads key into a new object of ptrToType's type (the zero
// object when the key is absent), passes it to tryUpdate, and writes the
// result back with compare-and-swap on the index it read, or with create
// when the key was absent. When another writer got there first (etcd 101
// or 105) it reads again and calls tryUpdate again, so tryUpdate may run
// more than once. A result whose encoding equals what is stored is not
// written at all.
//
// Ours: the compare-and-swap names only the index. v0.4 also sent the old
// value as prevValue, which doubled the size of every such request and
// checked nothing the index does not; go-etcd puts it in the URL, and an
// external etcd 3.4 member drops a new connection whose request line
// passes 4 KB (see pkg/lab/stack, etcdfront.go, which the original v0.4
// apiserver needs).
func (h *EtcdHelper) AtomicUpdate(key string, ptrToType api.Object, tryUpdate EtcdUpdateFunc) error {
	pt := reflect.TypeOf(ptrToType)
	if pt.Kind() != reflect.Pointer {
		panic("need ptr to type")
	}
	for {
		obj := reflect.New(pt.Elem()).Interface().(api.Object)
		origBody, index, err := h.bodyAndExtractObj(key, obj, true)
		if err != nil {
			return err
		}
		ret, err := tryUpdate(obj)
		if err != nil {
			return err
		}
		data, err := encode(ret)
		if err != nil {
			return err
		}
		if index == 0 {
			response, err := h.Client.Create(key, string(data), 0)
			if IsEtcdNodeExist(err) {
				continue
			}
			if err == nil {
				setVersionFrom(ret, response)
			}
			return err
		}
		if string(data) == origBody {
			ret.GetTypeMeta().ResourceVersion = index
			return nil
		}
		response, err := h.Client.CompareAndSwap(key, string(data), 0, "", index)
		if IsEtcdTestFailed(err) {
			continue
		}
		if err == nil {
			setVersionFrom(ret, response)
		}
		return err
	}
}

package walpods

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
)

// podCodec decodes what today's kube-apiserver stores as a pod: the
// Kubernetes protobuf encoding, the magic "k8s\x00" and a runtime.Unknown
// that wraps a v1.Pod. Its scheme knows core/v1 only.
var podCodec = func() *protobuf.Serializer {
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		panic(err)
	}
	return protobuf.NewSerializer(s, s)
}()

// decodePod decodes a pod as kube-apiserver stores it in etcd's v3 store.
func decodePod(value []byte) (*corev1.Pod, error) {
	obj, _, err := podCodec.Decode(value, nil, &corev1.Pod{})
	if err != nil {
		return nil, err
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return nil, fmt.Errorf("the value is a %T, not a Pod", obj)
	}
	return pod, nil
}

// podEventV3 is the event of a write of a pod's v3 key at revision rev,
// with what the value says of the pod; value is what was written, or for
// Deleted what the key held.
func podEventV3(typ EventType, key string, value []byte, rev int64) Event {
	ev := Event{Type: typ, Key: key, Value: string(value), StoreIndex: uint64(rev)}
	pod, err := decodePod(value)
	if err != nil {
		ev.DecodeError = err.Error()
		return ev
	}
	ev.Namespace, ev.Name = pod.Namespace, pod.Name
	ev.NodeName, ev.Phase = pod.Spec.NodeName, pod.Status.Phase
	ev.pod = pod
	return ev
}

// Pod returns the whole pod a v3 event's value holds: what was written,
// or for Deleted what the key held until then, as the reader decoded it
// once (the caller must not change it).
func (e Event) Pod() (*corev1.Pod, error) {
	switch {
	case e.V2 != nil:
		return nil, fmt.Errorf("%s is a v2 write: its value is 2014's pod", e.Key)
	case e.pod != nil:
		return e.pod, nil
	case e.DecodeError != "":
		return nil, fmt.Errorf("%s: %s", e.Key, e.DecodeError)
	}
	return decodePod([]byte(e.Value))
}

package conversion

// The object header: api.TypeMeta (v0.4's id, uid, resourceVersion, plus the
// ownerReferences and generation the port added) against metav1.ObjectMeta.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/util"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// LegacyAnnotationPrefix starts the annotation keys that carry v1beta1
// state across the boundary. They never reach the apiserver: the
// conversion back removes them.
const LegacyAnnotationPrefix = "v1beta1.kube-rewind.io/"

// The annotations the conversion writes. Each holds the v1beta1 JSON of a
// state verbatim; the conversion back restores the state from it rather
// than from the v1 fields, so that an object written back (a status PUT,
// an adoption, a pod made from a template) carries exactly what was read.
// That matters: the apiserver raises a controller's generation whenever
// the desiredState it is sent differs from the stored one byte for byte,
// and a lossy round trip would make every status write look like a spec
// change, and the next sync write again, for ever.
const (
	annotationDesiredState = LegacyAnnotationPrefix + "desired-state"
	annotationCurrentState = LegacyAnnotationPrefix + "current-state"
)

// ResourceVersionToV1 writes a 2014 numeric resourceVersion as the decimal
// string v1 uses; 0 (unset) becomes "".
func ResourceVersionToV1(rv uint64) string {
	if rv == 0 {
		return ""
	}
	return strconv.FormatUint(rv, 10)
}

// ResourceVersionFromV1 reads a v1 resourceVersion back; anything that is
// not a decimal number is 0, which our client refuses to send on an update.
func ResourceVersionFromV1(rv string) uint64 {
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func objectMetaToV1(t *api.TypeMeta, labels map[string]string) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name:              t.ID,
		Namespace:         t.Namespace,
		SelfLink:          t.SelfLink,
		UID:               types.UID(t.UID),
		ResourceVersion:   ResourceVersionToV1(t.ResourceVersion),
		Generation:        t.Generation,
		CreationTimestamp: timeToV1(t.CreationTimestamp),
		Labels:            copyMap(labels),
		Annotations:       copyMap(t.Annotations),
		OwnerReferences:   ownerReferencesToV1(t.OwnerReferences),
	}
}

// objectMetaFromV1 fills t from m and returns the labels. Annotations under
// LegacyAnnotationPrefix are left out of t; callers read them first.
func objectMetaFromV1(m *metav1.ObjectMeta, t *api.TypeMeta) map[string]string {
	t.ID = m.Name
	t.Namespace = m.Namespace
	t.SelfLink = m.SelfLink
	t.UID = string(m.UID)
	t.ResourceVersion = ResourceVersionFromV1(m.ResourceVersion)
	t.Generation = m.Generation
	t.CreationTimestamp = timeFromV1(m.CreationTimestamp)
	t.Annotations = userAnnotations(m.Annotations)
	t.OwnerReferences = ownerReferencesFromV1(m.OwnerReferences)
	return copyMap(m.Labels)
}

// userAnnotations returns annotations without the conversion's own keys,
// or nil when none remain.
func userAnnotations(in map[string]string) map[string]string {
	var out map[string]string
	for k, v := range in {
		if strings.HasPrefix(k, LegacyAnnotationPrefix) {
			continue
		}
		if out == nil {
			out = make(map[string]string, len(in))
		}
		out[k] = v
	}
	return out
}

// setStateAnnotation stores the JSON of state under key, unless state is
// its zero value.
func setStateAnnotation(m *metav1.ObjectMeta, key string, state, zero interface{}) {
	if reflect.DeepEqual(state, zero) {
		return
	}
	data, err := json.Marshal(state)
	if err != nil {
		// Every API type encodes; a failure would be a bug in pkg/api.
		panic(fmt.Sprintf("conversion: cannot encode %T: %v", state, err))
	}
	if m.Annotations == nil {
		m.Annotations = map[string]string{}
	}
	m.Annotations[key] = string(data)
}

// stateAnnotation decodes the state stored under key into out, and reports
// whether there was one.
func stateAnnotation(annotations map[string]string, key string, out interface{}) bool {
	data, ok := annotations[key]
	return ok && json.Unmarshal([]byte(data), out) == nil
}

func timeToV1(t util.Time) metav1.Time {
	return metav1.Time{Time: t.Time}
}

func timeFromV1(t metav1.Time) util.Time {
	return util.Time{Time: t.Time}
}

func ownerReferencesToV1(in []api.OwnerReference) []metav1.OwnerReference {
	if in == nil {
		return nil
	}
	out := make([]metav1.OwnerReference, len(in))
	for i, r := range in {
		out[i] = metav1.OwnerReference{
			APIVersion:         r.APIVersion,
			Kind:               r.Kind,
			Name:               r.Name,
			UID:                types.UID(r.UID),
			Controller:         copyBool(r.Controller),
			BlockOwnerDeletion: copyBool(r.BlockOwnerDeletion),
		}
	}
	return out
}

func ownerReferencesFromV1(in []metav1.OwnerReference) []api.OwnerReference {
	if in == nil {
		return nil
	}
	out := make([]api.OwnerReference, len(in))
	for i, r := range in {
		out[i] = api.OwnerReference{
			APIVersion:         r.APIVersion,
			Kind:               r.Kind,
			Name:               r.Name,
			UID:                string(r.UID),
			Controller:         copyBool(r.Controller),
			BlockOwnerDeletion: copyBool(r.BlockOwnerDeletion),
		}
	}
	return out
}

func copyBool(b *bool) *bool {
	if b == nil {
		return nil
	}
	v := *b
	return &v
}

func copyMap(in map[string]string) map[string]string {
	if in == nil {
		return nil
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

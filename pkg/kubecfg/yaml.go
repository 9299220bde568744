package kubecfg

// Follows what v0.4's kubecfg printed for -yaml and after resize, stop and
// run: gopkg.in/v1/yaml's Marshal of the decoded internal object. Keys come
// in the order of the struct's fields, not sorted; the header is the
// internal one (resourceVersion a quoted string, no kind or apiVersion);
// omitempty never drops a struct, an unset slice is [] and a map {}, a zero
// time is "null"; deprecated v1beta1 fields do not appear.
//
// Ours: yaml v2 writes a value tree built here by reflection. Two rare
// cases differ: a string holding a newline is a literal block, and one that
// reads as base-60 ("1:20") is quoted; yaml v1 quoted the first and wrote
// the second plain.

import (
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/util"
	yamlv2 "sigs.k8s.io/yaml/goyaml.v2"
)

var (
	typeMetaType    = reflect.TypeOf(api.TypeMeta{})
	utilTimeType    = reflect.TypeOf(util.Time{})
	timeType        = reflect.TypeOf(time.Time{})
	intOrStringType = reflect.TypeOf(util.IntOrString{})
)

// internalOnly lists, per type, the v1beta1 keys the internal object of
// v0.4 did not have.
var internalOnly = map[reflect.Type]map[string]bool{
	reflect.TypeOf(api.VolumeMount{}): {"path": true, "mountType": true},
	reflect.TypeOf(api.EnvVar{}):      {"key": true},
	reflect.TypeOf(api.MinionList{}):  {"minions": true},
}

// internalOmitEmpty lists the keys whose internal yaml tag said omitempty
// where the v1beta1 JSON tag did not.
var internalOmitEmpty = map[reflect.Type]map[string]bool{
	reflect.TypeOf(api.PodList{}): {"items": true},
}

// MarshalYAML returns obj as v0.4's kubecfg printed it.
func MarshalYAML(obj interface{}) ([]byte, error) {
	return yamlv2.Marshal(yamlValue(reflect.ValueOf(obj)))
}

// yamlValue returns the value yaml v1 would have written for v: a MapSlice
// for a struct, a map for a map, a slice for a slice, or a scalar.
func yamlValue(v reflect.Value) interface{} {
	if !v.IsValid() {
		return nil
	}
	switch v.Type() {
	case utilTimeType:
		t := v.Interface().(util.Time)
		if t.IsZero() {
			return "null"
		}
		return t.Time.Truncate(time.Second)
	case timeType:
		// time.Time has no exported field: yaml v1 wrote an empty mapping.
		return yamlv2.MapSlice{}
	case intOrStringType:
		ios := v.Interface().(util.IntOrString)
		if ios.Kind == util.IntstrString {
			return ios.StrVal
		}
		return ios.IntVal
	}
	switch v.Kind() {
	case reflect.Ptr, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return yamlValue(v.Elem())
	case reflect.Struct:
		return structYAML(v)
	case reflect.Map:
		out := make(map[string]interface{}, v.Len())
		for _, k := range v.MapKeys() {
			out[k.String()] = yamlValue(v.MapIndex(k))
		}
		return out
	case reflect.Slice:
		out := make([]interface{}, 0, v.Len())
		for i := 0; i < v.Len(); i++ {
			out = append(out, yamlValue(v.Index(i)))
		}
		return out
	case reflect.String:
		return v.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint()
	case reflect.Bool:
		return v.Bool()
	case reflect.Float32, reflect.Float64:
		return v.Float()
	}
	return nil
}

// structYAML writes a struct's fields in order under their JSON names,
// flattening inline ones, and the header in its internal form.
func structYAML(v reflect.Value) yamlv2.MapSlice {
	if v.Type() == typeMetaType {
		return typeMetaYAML(v.Interface().(api.TypeMeta))
	}
	out := yamlv2.MapSlice{}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.PkgPath != "" {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || internalOnly[t][name] {
			continue
		}
		if opts == "inline" || (f.Anonymous && name == "") {
			out = append(out, structYAML(v.Field(i))...)
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		omitEmpty := strings.Contains(","+opts+",", ",omitempty,") || internalOmitEmpty[t][name]
		if omitEmpty && isZero(v.Field(i)) {
			continue
		}
		out = append(out, yamlv2.MapItem{Key: name, Value: yamlValue(v.Field(i))})
	}
	return out
}

// typeMetaYAML writes the header as v0.4's internal TypeMeta held it.
func typeMetaYAML(m api.TypeMeta) yamlv2.MapSlice {
	out := yamlv2.MapSlice{}
	add := func(key string, value interface{}, omit bool) {
		if !omit {
			out = append(out, yamlv2.MapItem{Key: key, Value: value})
		}
	}
	add("kind", m.Kind, m.Kind == "")
	add("id", m.ID, m.ID == "")
	add("creationTimestamp", yamlValue(reflect.ValueOf(m.CreationTimestamp)), false)
	add("selfLink", m.SelfLink, m.SelfLink == "")
	add("resourceVersion", strconv.FormatUint(m.ResourceVersion, 10), m.ResourceVersion == 0)
	add("apiVersion", m.APIVersion, m.APIVersion == "")
	add("namespace", m.Namespace, m.Namespace == "")
	add("uid", m.UID, m.UID == "")
	add("annotations", yamlValue(reflect.ValueOf(m.Annotations)), len(m.Annotations) == 0)
	add("ownerReferences", yamlValue(reflect.ValueOf(m.OwnerReferences)), len(m.OwnerReferences) == 0)
	add("generation", m.Generation, m.Generation == 0)
	return out
}

// isZero is yaml v1's test for omitempty: a struct is never empty.
func isZero(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return v.Len() == 0
	case reflect.Interface, reflect.Ptr:
		return v.IsNil()
	case reflect.Slice, reflect.Map:
		return v.Len() == 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint() == 0
	case reflect.Bool:
		return !v.Bool()
	}
	return false
}

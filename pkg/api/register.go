package api

// Follows kubernetes/kubernetes pkg/api/register.go and pkg/runtime as of
// v0.4 (October 2014): every kind the server knows, by name.

import (
	"fmt"
	"reflect"
	"sort"
)

// Version is the only API version this port speaks.
const Version = "v1beta1"

// Object is anything the API sends or stores: every type embeds TypeMeta.
//
// Ours: v0.4 kept this in pkg/runtime, next to a full conversion scheme. With
// a single wire version the interface is all that remains, so it lives here.
type Object interface {
	GetTypeMeta() *TypeMeta
}

var kinds = map[string]func() Object{
	"Pod":                       func() Object { return &Pod{} },
	"PodList":                   func() Object { return &PodList{} },
	"ReplicationController":     func() Object { return &ReplicationController{} },
	"ReplicationControllerList": func() Object { return &ReplicationControllerList{} },
	"Service":                   func() Object { return &Service{} },
	"ServiceList":               func() Object { return &ServiceList{} },
	"Endpoints":                 func() Object { return &Endpoints{} },
	"EndpointsList":             func() Object { return &EndpointsList{} },
	"Minion":                    func() Object { return &Minion{} },
	"MinionList":                func() Object { return &MinionList{} },
	"Binding":                   func() Object { return &Binding{} },
	"Status":                    func() Object { return &Status{} },
	"ServerOp":                  func() Object { return &ServerOp{} },
	"ServerOpList":              func() Object { return &ServerOpList{} },
	"ContainerManifestList":     func() Object { return &ContainerManifestList{} },
}

// New returns an empty object of the named kind.
func New(kind string) (Object, error) {
	f, ok := kinds[kind]
	if !ok {
		return nil, fmt.Errorf("unknown kind %q", kind)
	}
	return f(), nil
}

// Kinds returns the names of every registered kind, sorted.
func Kinds() []string {
	out := make([]string, 0, len(kinds))
	for k := range kinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// KindOf returns the kind name of obj: its Go type name.
func KindOf(obj Object) string {
	t := reflect.TypeOf(obj)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}

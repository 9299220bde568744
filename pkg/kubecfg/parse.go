package kubecfg

// Follows kubernetes/kubernetes pkg/kubecfg/parse.go as of v0.4 (October
// 2014): a config file must decode as the kind of the resource it is sent
// to, and goes out as v1beta1 JSON.

import (
	"fmt"
	"reflect"
	"sort"

	"github.com/kube-rewind/kube-rewind/pkg/api"
)

// Parser maps resource names ("pods") to the type of their objects.
type Parser struct {
	storageToType map[string]reflect.Type
}

// NewParser returns a parser for the resources of objectMap.
func NewParser(objectMap map[string]api.Object) *Parser {
	typeMap := make(map[string]reflect.Type, len(objectMap))
	for name, obj := range objectMap {
		typeMap[name] = reflect.TypeOf(obj).Elem()
	}
	return &Parser{typeMap}
}

// ToWireFormat decodes data (JSON or YAML) as an object of the storage's
// kind and returns its v1beta1 JSON. A file of another kind is refused
// ("data of kind 'Service', obj of type 'Pod'").
//
// Ours: v0.4 also took the codecs to decode and encode with; this port has
// one wire version, so there is nothing to choose.
func (p *Parser) ToWireFormat(data []byte, storage string) ([]byte, error) {
	obj, err := p.ToObject(data, storage)
	if err != nil {
		return nil, err
	}
	return api.Encode(obj)
}

// ToObject decodes data as an object of the storage's kind.
func (p *Parser) ToObject(data []byte, storage string) (api.Object, error) {
	prototype, found := p.storageToType[storage]
	if !found {
		return nil, fmt.Errorf("unknown storage type: %v", storage)
	}
	obj := reflect.New(prototype).Interface().(api.Object)
	if err := api.DecodeInto(data, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// SupportedWireStorage returns the resource names, sorted.
func (p *Parser) SupportedWireStorage() []string {
	types := make([]string, 0, len(p.storageToType))
	for k := range p.storageToType {
		types = append(types, k)
	}
	sort.Strings(types)
	return types
}

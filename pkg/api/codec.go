package api

// Follows kubernetes/kubernetes pkg/runtime/scheme.go and
// pkg/conversion/decode.go as of v0.4 (October 2014): objects are read from
// JSON or YAML, refused when their kind is not the one expected, and written
// as JSON with kind and apiVersion on the top object only.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"

	jsonv1 "github.com/go-json-experiment/json/v1"
	"sigs.k8s.io/yaml"
	yamlv2 "sigs.k8s.io/yaml/goyaml.v2"
)

// Encode returns the v1beta1 JSON of obj with kind and apiVersion set on the
// top object. obj itself is not changed, so one object may be encoded by
// many goroutines at once (a watch event goes to every watcher).
//
// Ours: v0.4 first converted its internal object to the v1beta1 type by
// reflection (pkg/conversion, encode.go); with one type for both, the port
// marshals the object as it is.
func Encode(obj Object) ([]byte, error) {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nil, fmt.Errorf("cannot encode %T: not a pointer to an object", obj)
	}
	cp := reflect.New(v.Elem().Type())
	cp.Elem().Set(v.Elem())
	out := cp.Interface().(Object)
	meta := out.GetTypeMeta()
	meta.Kind = KindOf(obj)
	meta.APIVersion = Version
	return json.Marshal(out)
}

// Decode reads an object of any registered kind. The data must name its kind
// and apiVersion, as 2014 required of a bare Decode.
func Decode(data []byte) (Object, error) {
	data, err := toJSON(data)
	if err != nil {
		return nil, err
	}
	var head struct {
		Kind       string `json:"kind"`
		APIVersion string `json:"apiVersion"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("couldn't get version/kind: %v", err)
	}
	if head.APIVersion == "" {
		return nil, fmt.Errorf("version not set in '%s'", truncate(data))
	}
	if head.Kind == "" {
		return nil, fmt.Errorf("kind not set in '%s'", truncate(data))
	}
	obj, err := New(head.Kind)
	if err != nil {
		return nil, err
	}
	if err := decodeJSONInto(data, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// DecodeInto reads data into obj. Missing kind and apiVersion are taken to be
// obj's; a different kind or an apiVersion other than v1beta1 is an error.
// After decoding, kind and apiVersion are cleared: they belong to the wire.
func DecodeInto(data []byte, obj Object) error {
	// The fast path: most bodies, and every stored object, are JSON, so try
	// that first and go through YAML only when it is not.
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '{' {
		// Ours: v0.4 (pkg/conversion, decode.go and meta.go) read every
		// object with a YAML parser twice, once for its kind and
		// apiVersion and once to decode it, then converted it by
		// reflection from v1beta1 to its internal types: many times what
		// a stored pod costs here (measured once, on a loaded 2-core
		// machine; the originals page says by how much). A LIST decodes
		// every stored object, so this apiserver's reads
		// cost a small part of v0.4's, and so do its LISTs of an idle
		// cluster; the original apiserver, run as the variant
		// stack-original (pkg/lab/original), shows the difference. Here
		// go-json-experiment's decoder, which follows encoding/json's rules
		// and reads the input once, decodes JSON; whatever it refuses goes
		// through encoding/json, from the same empty object, so errors,
		// and what is accepted, stay as they were.
		if fresh := reflect.ValueOf(obj).Elem().IsZero(); fresh {
			if jsonv1.Unmarshal(trimmed, obj) == nil {
				return checkKindAndVersion(obj)
			}
			reset(obj)
		}
		err := decodeJSONInto(trimmed, obj)
		if _, syntax := err.(*json.SyntaxError); !syntax {
			return err
		}
	}
	data, err := toJSON(data)
	if err != nil {
		return err
	}
	return decodeJSONInto(data, obj)
}

func decodeJSONInto(data []byte, obj Object) error {
	if err := json.Unmarshal(data, obj); err != nil {
		return err
	}
	return checkKindAndVersion(obj)
}

// checkKindAndVersion refuses a decoded object whose kind or apiVersion is
// not obj's, then clears both: they belong to the wire.
func checkKindAndVersion(obj Object) error {
	meta := obj.GetTypeMeta()
	if meta.Kind != "" && meta.Kind != KindOf(obj) {
		return fmt.Errorf("data of kind '%s', obj of type '%s'", meta.Kind, KindOf(obj))
	}
	if meta.APIVersion != "" && meta.APIVersion != Version {
		return fmt.Errorf("unsupported apiVersion '%s' (this server speaks %s)", meta.APIVersion, Version)
	}
	meta.Kind = ""
	meta.APIVersion = ""
	return nil
}

// toJSON returns data unchanged when it is JSON and converts it when it is
// YAML. 2014 sent every body through a YAML parser, which is why sloppy JSON
// (a trailing comma, say) was accepted; the fast path here keeps that
// behaviour while sparing valid JSON the detour.
func toJSON(data []byte) ([]byte, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, fmt.Errorf("empty body")
	}
	if trimmed[0] == '{' && json.Valid(trimmed) {
		return trimmed, nil
	}
	out, err := yaml.YAMLToJSON(trimmed)
	if err != nil {
		if trimmed[0] == '{' {
			return nil, jsonSyntaxError(trimmed, err)
		}
		return nil, fmt.Errorf("neither JSON nor YAML: %v", err)
	}
	if len(out) == 0 || out[0] != '{' {
		return nil, fmt.Errorf("body is not an object: '%s'", truncate(trimmed))
	}
	if err := checkSingleDocument(trimmed); err != nil {
		return nil, err
	}
	return out, nil
}

// jsonSyntaxError explains why data, which opens like JSON and is not YAML
// either, is not JSON: the JSON parser's complaint and where it arose (a
// truncated file ends at its last byte), then the YAML parser's.
//
// Ours: v0.4 reported only the YAML parser's error, whose line numbers and
// wording say nothing about the JSON a user wrote.
func jsonSyntaxError(data []byte, yamlErr error) error {
	var probe interface{}
	err := json.Unmarshal(data, &probe)
	syntax, ok := err.(*json.SyntaxError)
	if !ok {
		return fmt.Errorf("neither JSON nor YAML: %v", yamlErr)
	}
	// Offset counts the bytes read when the parser gave up, so the byte at
	// fault is the one before it.
	i := max(0, min(int(syntax.Offset), len(data))-1)
	line := bytes.Count(data[:i], []byte("\n")) + 1
	column := i - bytes.LastIndexByte(data[:i], '\n')
	where := fmt.Sprintf("line %d, column %d", line, column)
	if int(syntax.Offset) >= len(data) {
		where += ", the end of the input"
	}
	return fmt.Errorf("invalid JSON at %s: %v (nor is it YAML: %v)", where, syntax, yamlErr)
}

// checkSingleDocument refuses YAML with anything after its first document.
//
// Ours: the YAML reader v0.4 used stops after the first node and ignores
// the rest, so `{"id":"a"} {"id":"b"}`, `{"id":"a"} garbage` and a second
// "---" document were all read as just the first object. What a client
// meant by the rest is anybody's guess; it is an error here.
func checkSingleDocument(data []byte) error {
	dec := yamlv2.NewDecoder(bytes.NewReader(data))
	var first interface{}
	if err := dec.Decode(&first); err != nil {
		return fmt.Errorf("neither JSON nor YAML: %v", err)
	}
	for {
		var next interface{}
		err := dec.Decode(&next)
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			return fmt.Errorf("data after the object: %v", err)
		case next != nil:
			return fmt.Errorf("more than one object: a second YAML document follows the first")
		}
		// An empty document, after a trailing "---", says nothing more.
	}
}

func truncate(data []byte) []byte {
	const max = 80
	if len(data) > max {
		return append(append([]byte{}, data[:max]...), "..."...)
	}
	return data
}

// reset sets the object obj points to back to its zero value.
func reset(obj Object) {
	v := reflect.ValueOf(obj).Elem()
	v.Set(reflect.Zero(v.Type()))
}

package apiserver

// Ours: v0.4 decoded bodies with a parser that kept the last of two equal
// keys, so {"id":"a","id":"b"} created b. Parsers disagree on which of the
// two counts, and a proxy or an audit log that read the first would see a
// different object than the one stored; a body with a key twice in one
// object is refused instead.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"sigs.k8s.io/yaml"
)

// checkDuplicateKeys returns an error naming the first key that appears
// twice in one object of body. body must already have decoded: JSON is
// walked token by token, anything else goes through the strict YAML
// reader, which fails only on duplicates where the lenient one succeeded.
func checkDuplicateKeys(body []byte) error {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		if _, err := yaml.YAMLToJSONStrict(trimmed); err != nil {
			return fmt.Errorf("a key appears twice: %v", err)
		}
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	// One frame per open object or array: the keys seen so far (nil for an
	// array) and whether the next string token is a key.
	type frame struct {
		keys      map[string]bool
		expectKey bool
	}
	var stack []frame
	path := []string{}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		top := len(stack) - 1
		if delim, ok := tok.(json.Delim); ok {
			switch delim {
			case '{':
				stack = append(stack, frame{keys: map[string]bool{}, expectKey: true})
			case '[':
				stack = append(stack, frame{})
			default:
				stack = stack[:top]
				if len(stack) > 0 && stack[len(stack)-1].keys != nil {
					stack[len(stack)-1].expectKey = true
					path = path[:len(path)-1]
				}
			}
			continue
		}
		if top < 0 || stack[top].keys == nil {
			continue
		}
		if stack[top].expectKey {
			key := tok.(string)
			if stack[top].keys[key] {
				return fmt.Errorf("key %q appears twice in %s", key, describePath(path))
			}
			stack[top].keys[key] = true
			stack[top].expectKey = false
			path = append(path, key)
			continue
		}
		// A scalar value ends the member.
		stack[top].expectKey = true
		path = path[:len(path)-1]
	}
}

// describePath names the object holding a key: "the body" at the top, else
// the dotted path of keys leading to it.
func describePath(path []string) string {
	if len(path) == 0 {
		return "the body"
	}
	out := ""
	for i, p := range path {
		if i > 0 {
			out += "."
		}
		out += p
	}
	return out
}

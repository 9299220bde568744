package apiserver

// Ours: v0.4 decoded bodies with a parser that kept the last of two equal
// keys, so {"id":"a","id":"b"} created b. Parsers disagree on which of the
// two counts, and a proxy or an audit log that read the first would see a
// different object than the one stored; a body with a key twice in one
// object is refused instead.

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"sigs.k8s.io/yaml"
)

// checkDuplicateKeys returns an error naming the first key that appears
// twice in one object of body. body must already have decoded. A JSON
// object is read once by jsontext, which refuses duplicate names as RFC
// 7493 asks (names compared after unescaping); anything else, YAML
// included, goes through the strict YAML reader, which fails only on
// duplicates where the lenient one succeeded.
func checkDuplicateKeys(body []byte) error {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		// Invalid UTF-8 is allowed, as encoding/json allows it when the
		// body is decoded: this check is about names, not encodings.
		err := jsontext.NewDecoder(bytes.NewReader(trimmed), jsontext.AllowInvalidUTF8(true)).SkipValue()
		var syntax *jsontext.SyntacticError
		switch {
		case err == nil:
			return nil
		case errors.As(err, &syntax) && errors.Is(syntax.Err, jsontext.ErrDuplicateName):
			// The pointer leads to the second occurrence of the name.
			where := slices.Collect(syntax.JSONPointer.Parent().Tokens())
			return fmt.Errorf("key %q appears twice in %s", syntax.JSONPointer.LastToken(), describePath(where))
		}
		// Not JSON after all: a YAML flow mapping such as {id: a}.
	}
	if _, err := yaml.YAMLToJSONStrict(trimmed); err != nil {
		return fmt.Errorf("a key appears twice: %v", err)
	}
	return nil
}

// describePath names the object holding a key: "the body" at the top, else
// the dotted path of names and array indexes leading to it.
func describePath(path []string) string {
	if len(path) == 0 {
		return "the body"
	}
	return strings.Join(path, ".")
}

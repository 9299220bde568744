package apiserver

import (
	"strings"
	"testing"
)

func TestABodyWithAKeyTwiceInOneObjectIsRefused(t *testing.T) {
	cases := []struct {
		body    string
		mention string
	}{
		{`{"id":"a","id":"b"}`, `key "id" appears twice in the body`},
		{`{"id":"a","labels":{"x":"1","y":"2","x":"3"}}`, `key "x" appears twice in labels`},
		{`{"desiredState":{"manifest":{"containers":[{"name":"a","name":"b"}]}}}`, `key "name" appears twice in desiredState.manifest.containers.0`},
		{`{"items":[{"id":"a"},{"id":"b","labels":{"a/b":"1","a/b":"2"}}]}`, `key "a/b" appears twice in items.1.labels`},
		{`{"a\u0041":1,"aA":2}`, `key "aA" appears twice in the body`},
		{"{id: a, id: b}", "appears twice"},
		{`{"a":[1,{"b":2}],"c":{"d":[]},"a":0}`, `key "a" appears twice in the body`},
		{"id: a\nid: b\n", "appears twice"},
		{"labels: {x: 1, x: 2}\n", "appears twice"},
		{`{"id":"a","id":"b",}`, "appears twice"},
	}
	for _, c := range cases {
		err := checkDuplicateKeys([]byte(c.body))
		if err == nil || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("%s: got %v, want an error mentioning %q", c.body, err, c.mention)
		}
	}
}

func TestEqualKeysInDifferentObjectsAreFine(t *testing.T) {
	for _, body := range []string{
		`{"id":"a","labels":{"id":"x"},"desiredState":{"id":"y"},"currentState":{"id":"z"}}`,
		`{"items":[{"id":"a"},{"id":"a"}],"id":"b"}`,
		`{"a":{"b":{"c":1}},"b":{"a":{"c":2}}}`,
		`{"ID":"a","id":"b"}`,
		"id: a\nlabels: {id: b}\n",
		`{}`,
		"{\"id\":\"a\xff\"}",
	} {
		if err := checkDuplicateKeys([]byte(body)); err != nil {
			t.Errorf("%s: %v", body, err)
		}
	}
}

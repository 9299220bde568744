package source

import (
	"reflect"
	"testing"
)

func TestParagraphsSeparateOnBlankLinesAndKnowListsAndIndentedText(t *testing.T) {
	ps := Paragraphs([]string{
		"First paragraph",
		"continues.",
		"",
		"Second:",
		"  - one item",
		"    wrapped",
		"  - two",
		"",
		"\tcode line 1",
		"\tcode line 2",
	})
	if len(ps) != 4 {
		t.Fatalf("got %d blocks, want 4: %+v", len(ps), ps)
	}
	if ps[0].Kind != Text || ps[0].Text != "First paragraph continues." {
		t.Errorf("block 0 = %+v", ps[0])
	}
	if ps[1].Kind != Text || ps[1].Text != "Second:" {
		t.Errorf("block 1 = %+v", ps[1])
	}
	if ps[2].Kind != List || len(ps[2].Items) != 2 || ps[2].Items[0] != "one item wrapped" {
		t.Errorf("block 2 = %+v", ps[2])
	}
	if ps[3].Kind != Pre || ps[3].Text != "code line 1\ncode line 2" {
		t.Errorf("block 3 = %+v", ps[3])
	}
}

func TestAYearStartingAWrappedLineIsNotAList(t *testing.T) {
	ps := Paragraphs([]string{"as it was in", "2014. Then it changed."})
	if len(ps) != 1 || ps[0].Kind != Text {
		t.Errorf("paragraphs = %+v, want one text paragraph", ps)
	}
}

func TestParagraphsReadGoDocSyntaxAndKeepTheCommentsOwnHabits(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  []Paragraph
	}{
		{
			"a list written as in Markdown, without indentation, is a list",
			[]string{"Steps:", "", "- one", "- two"},
			[]Paragraph{{Kind: Text, Text: "Steps:"}, {Kind: List, Items: []string{"one", "two"}}},
		},
		{
			"a dash that continues a sentence is no list",
			[]string{"Intro", "- not an item"},
			[]Paragraph{{Kind: Text, Text: "Intro - not an item"}},
		},
		{
			"a Markdown list after an example is a list of its own",
			[]string{"\tf()", "", "- one"},
			[]Paragraph{{Kind: Pre, Text: "f()"}, {Kind: List, Items: []string{"one"}}},
		},
		{
			"a comment that is all example stays preformatted",
			[]string{"\tkubecfg list pods"},
			[]Paragraph{{Kind: Pre, Text: "kubecfg list pods"}},
		},
		{
			"a comment that is all list stays a list",
			[]string{"  1. first", "  2. second"},
			[]Paragraph{{Kind: List, Items: []string{"first", "second"}}},
		},
		{
			"items split by a blank line are one list",
			[]string{"  - one", "", "  - two"},
			[]Paragraph{{Kind: List, Items: []string{"one", "two"}}},
		},
		{
			"an example keeps the indentation within it",
			[]string{"Run:", "", "    for {", "        sync()", "    }"},
			[]Paragraph{{Kind: Text, Text: "Run:"}, {Kind: Pre, Text: "for {\n    sync()\n}"}},
		},
		{
			"a short line between paragraphs is no heading",
			[]string{"Before.", "", "Wait for caches", "", "After."},
			[]Paragraph{{Kind: Text, Text: "Before."}, {Kind: Text, Text: "Wait for caches"}, {Kind: Text, Text: "After."}},
		},
		{
			"a bracketed name and a URL are left as written",
			[]string{"Like [sync.Mutex], see https://go.dev/doc."},
			[]Paragraph{{Kind: Text, Text: "Like [sync.Mutex], see https://go.dev/doc."}},
		},
		{
			"a link definition is shown, not dropped",
			[]string{"The spec.", "", "[spec]: https://go.dev/ref/spec"},
			[]Paragraph{{Kind: Text, Text: "The spec."}, {Kind: Text, Text: "[spec]: https://go.dev/ref/spec"}},
		},
		{
			"a marker is found in a paragraph",
			[]string{"Ours: a liberty."},
			[]Paragraph{{Kind: Text, Marker: "Ours", Text: "Ours: a liberty."}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Paragraphs(tc.lines); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Paragraphs(%q)\n got %+v\nwant %+v", tc.lines, got, tc.want)
			}
		})
	}
}

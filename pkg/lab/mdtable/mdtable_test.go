package mdtable

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// The pages that use Write are published, and a change of a byte in a
// table shows in their history as a change of the figures: these pin the
// bytes each page's tables came out as before they shared this writer.
func TestATableComesOutAsThePagesHaveAlwaysPrintedIt(t *testing.T) {
	for _, tc := range []struct {
		name  string
		table Table
		want  string
	}{
		{
			name: "the benchmark's figures align right, the rest left",
			table: Table{
				Header: []string{"variant", "figure", "median"},
				Align:  []Align{Left, Left, Right},
				Rows:   [][]string{{"legacy", "pods", "100"}, {"modern", "pods", "99"}},
			},
			want: "| variant | figure | median |\n|---|---|---:|\n| legacy | pods | 100 |\n| modern | pods | 99 |\n\n",
		},
		{
			name: "a pipe stays in its cell, header or row",
			table: Table{
				Header: []string{"a|b", "code"},
				Rows:   [][]string{{"x", "`a || b`"}},
			},
			want: "| a\\|b | code |\n|---|---|\n| x | `a \\|\\| b` |\n\n",
		},
		{
			name: "columns past the alignments align left",
			table: Table{
				Header: []string{"n", "name", "note"},
				Align:  []Align{Right},
				Rows:   [][]string{{"1", "a", ""}},
			},
			want: "| n | name | note |\n|---:|---|---|\n| 1 | a |  |\n\n",
		},
		{
			name: "the mutation score keeps its narrower rule",
			table: Table{
				Header: []string{"package", "mutants"},
				Align:  []Align{Left, "--:"},
				Rows:   [][]string{{"pkg/controller", "24"}},
			},
			want: "| package | mutants |\n|---|--:|\n| pkg/controller | 24 |\n\n",
		},
		{
			name:  "a table without rows is its header",
			table: Table{Header: []string{"a", "b"}, Align: []Align{Right, Right}},
			want:  "| a | b |\n|---:|---:|\n\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := Write(&b, tc.table); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("wrote\n%q\nwant\n%q", b.String(), tc.want)
			}
		})
	}
}

// failingWriter refuses every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestAWriteThatFailsSaysSo(t *testing.T) {
	if err := Write(failingWriter{}, Table{Header: []string{"a"}}); err == nil {
		t.Error("a failed write returned no error")
	}
}

func ExampleWrite() {
	Write(os.Stdout, Table{
		Header: []string{"apiserver", "LISTs", "median"},
		Align:  []Align{Left, Right, Right},
		Rows:   [][]string{{"c8a39af", "10", "1.74 s"}},
	})
	// Output:
	// | apiserver | LISTs | median |
	// |---|---:|---:|
	// | c8a39af | 10 | 1.74 s |
}

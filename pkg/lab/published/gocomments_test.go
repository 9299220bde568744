package published

import (
	"reflect"
	"testing"
)

// TestGoCommentsCopyingAMeasuredFigureAreCaught plants measured figures
// in the comments of a Go file and sees each caught at its line, over a
// line's end too; a constant of the allow-list (one with the words that
// follow its figure only with them), words, plain durations, rates, code
// and strings, test files and build output pass.
func TestGoCommentsCopyingAMeasuredFigureAreCaught(t *testing.T) {
	root := writeTree(t, map[string]string{
		"p/p.go": "// Package p is planted.\npackage p\n\n" +
			"// limit bounds a body: reads at most 3 MiB, as the\n" + // 4: a constant
			"// apiserver does; a LIST of 150 000 pods took 2.61 CPU s and\n" + // 5
			"// allocated 609\n// MB,\n" + // 6, over a line's end
			"// 6 × the old one's, 37x faster, in 260 µs, at 64 goroutines.\n" + // 8: four
			"const limit = 3 << 20 // 17 % of its CPU\n\n" + // 9
			"/* A block: 15 times more\n   sockets. */\n" + // 11
			"// Words and code: twice, three times, a third; every 10 s, 2 min;\n" +
			"// Go samples 100 times a second; steps of 2.5 or 5 times\n// a power of ten; v0.4's 0x1F; a 3 x 4 grid.\n" +
			"var s = \"a string: 50 % and 16 MiB\"\n\n" +
			"// busy: it used 90 % of a\n// core or more, for 90 % of the run.\n" + // 18, 19
			"var busy = 0.9\n",
		"p/p_test.go":          "package p\n\n// 42 MiB in a test.\n",
		"_output/o.go":         "package o\n\n// 42 MiB in build output.\n",
		"p/testdata/t.go":      "package t\n\n// 42 MiB in testdata.\n",
		"p/notgo.md":           "42 MiB in Markdown is the prose check's.\n",
		"cmd/m/m.go":           "package main\n\nconst limit = 3 << 20\n\nconst busy = 0.9\n",
		"p/sub/broken_test.go": "this is no Go",
	})
	allowed, err := Constants(root, []Mirror{{Dir: "cmd/m", Name: "limit", Form: "{MiB} MiB"}, {Dir: "cmd/m", Name: "busy", Form: "{%} % of a core"}})
	if err != nil || len(allowed) != 2 || allowed[0].Text != "3 MiB" || allowed[1].Text != "90 % of a core" {
		t.Fatalf("Constants = %v, %v", allowed, err)
	}
	drifts, err := UncitedInGo(root, allowed)
	if err != nil {
		t.Fatal(err)
	}
	type at struct {
		Line int
		Fig  string
	}
	var got []at
	for _, d := range drifts {
		if d.File != "p/p.go" {
			t.Errorf("a figure of %s: %v", d.File, d)
		}
		got = append(got, at{d.Line, d.Written})
	}
	want := []at{{5, "2.61 CPU s"}, {6, "609 MB"}, {8, "6 ×"}, {8, "37x"}, {8, "260 µs"}, {8, "64 goroutines"}, {9, "17 %"}, {11, "15 times"}, {19, "90 %"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("caught %v,\nwant %v", got, want)
	}

	// Without the constant allowed, it is caught too.
	drifts, err = UncitedInGo(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(drifts) != len(want)+2 || drifts[0].Line != 4 || drifts[0].Written != "3 MiB" {
		t.Errorf("with nothing allowed: %v", drifts)
	}
}

// TestConstantsReadShiftsAndWriteUnits reads a shift and writes bytes in
// KiB, MiB and MB and a fraction as a percentage.
func TestConstantsReadShiftsAndWriteUnits(t *testing.T) {
	root := writeTree(t, map[string]string{
		"p/a.go": "package p\n\nconst kib = 64 << 10\n\nconst header = 1 << 20\n\nconst body = 3<<20 + 1<<19\n\n" +
			"const segment = 64 * 1000 * 1000\n\nconst busy = 0.9\n\nconst share = 0.07\n\nconst bad = 1 << -1\n",
	})
	cs, err := Constants(root, []Mirror{
		{Dir: "p", Name: "kib", Form: "{KiB} KiB"}, {Dir: "p", Name: "header", Form: "{MiB} MiB"},
		{Dir: "p", Name: "body", Form: "{MiB} MiB"}, {Dir: "p", Name: "segment", Form: "{MB} MB"},
		{Dir: "p", Name: "busy", Form: "{%} %"}, {Dir: "p", Name: "share", Form: "{%} %"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, c.Text)
	}
	if want := []string{"64 KiB", "1 MiB", "3.5 MiB", "64 MB", "90 %", "7 %"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Constants wrote %q, want %q", got, want)
	}
	if _, err := GoValue(root, "p", "bad"); err == nil {
		t.Error("a shift by a negative count: no error")
	}
}

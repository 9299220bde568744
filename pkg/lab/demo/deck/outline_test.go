package deck

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/source"
)

func TestAnOutlineSaysEachSlidesKindTextAndNotes(t *testing.T) {
	o, err := ParseOutline([]byte(`# My talk

Ada Lovelace
Analytical Engines Conference 2027

minutes: 25

> Breathe.

## Why

Some *emphasis*, a ` + "`code span`" + `, a [link](https://example.com) and <b>raw HTML</b>.

- one
- two

> Say why.

## The 2014 sync

code: pkg/controller ReplicationManager.syncReplicationController today
focus: go func() {
mark: rm.podControl.createReplica(ctx, controllerSpec)
mark: defer wait.Done()

## History

timeline

## Two managers

recording: [two managers](recordings/two-managers.html)

## In the end

summary
`))
	if err != nil {
		t.Fatal(err)
	}
	if o.Title != "My talk" || fmt.Sprint(o.Lines) != "[Ada Lovelace Analytical Engines Conference 2027]" || o.Minutes != 25 || len(o.Notes) != 1 {
		t.Errorf("title card: %q, lines %q, %d minutes, notes %v", o.Title, o.Lines, o.Minutes, o.Notes)
	}
	var kinds []string
	for _, s := range o.Sections {
		kinds = append(kinds, s.Kind)
	}
	if fmt.Sprint(kinds) != "[text code timeline talk summary]" {
		t.Fatalf("sections %v", kinds)
	}
	why := o.Sections[0]
	for _, want := range []string{"<em>emphasis</em>", "<code>code span</code>", "a link and", "&lt;b&gt;raw HTML&lt;/b&gt;", "<ul><li>one</li><li>two</li></ul>"} {
		if !strings.Contains(why.Body, want) {
			t.Errorf("the text card's body lacks %q: %s", want, why.Body)
		}
	}
	if strings.Contains(why.Body, "href") || strings.Contains(why.Body, "Say why") || len(why.Notes) != 1 || why.Notes[0].Text != "Say why." {
		t.Errorf("body %s, notes %v: a link keeps its words only, a quote is a note", why.Body, why.Notes)
	}
	code := o.Sections[1].Code
	if code.Dir != "pkg/controller" || code.Name != "ReplicationManager.syncReplicationController" || !code.Modern || code.Focus != "go func() {" || len(code.Mark) != 2 {
		t.Errorf("code %+v", code)
	}
	if o.Sections[3].Recording != "recordings/two-managers.html" {
		t.Errorf("recording %q", o.Sections[3].Recording)
	}
}

func TestAnOutlineThatCannotBeADeckIsRefusedByWhatIsWrong(t *testing.T) {
	for _, tc := range []struct{ name, outline, want string }{
		{"no title", "## A slide\n\ntext\n", "no title"},
		{"no slides", "# Title\n\nlines\n", "no slides"},
		{"two titles", "# One\n\n## A\n\ntext\n\n# Two\n", "a second title"},
		{"code without a name", "# T\n\n## C\n\ncode: pkg/controller\n", "want a directory and a declaration"},
		{"two kinds", "# T\n\n## C\n\nrecording: a.html\n\ntimeline\n", "already a talk"},
		{"a mark without code", "# T\n\n## C\n\nmark: x\n", "belong to a code: section"},
		{"a directive among words", "# T\n\n## C\n\nSome words\nrecording: a.html\n", "a paragraph of its own"},
		{"minutes in a slide", "# T\n\n## C\n\nminutes: 3\n", "belongs under the title"},
		{"minutes that are not", "# T\n\nminutes: soon\n\n## C\n\ntext\n", "whole minutes"},
		{"a list on the title card", "# T\n\n- a\n\n## C\n\ntext\n", "the title card holds no"},
		{"a waterfall without rows", "# T\n\n## W\n\nwaterfall\n\nwords\n", "wants a list after it"},
		{"a waterfall row without a figure", "# T\n\n## W\n\nwaterfall\n\n- ours: 2.92 s\n- today's\n", "a label, a colon and a figure"},
		{"a waterfall figure that is no number", "# T\n\n## W\n\nwaterfall\n\n- ours: 2.92 s\n- today's: soon\n", "not a number"},
		{"a waterfall in two units", "# T\n\n## W\n\nwaterfall\n\n- ours: 2.92 s\n- today's: 10.0 min\n", "one card, one unit"},
		{"a waterfall from a step", "# T\n\n## W\n\nwaterfall\n\n- a cause: +7.10 s\n- today's: 10.02 s\n", "starts from a total"},
		// 2.92 + 7.10 is 10.02: a total of 10.05 lies beyond the
		// rounding of three figures shown to the hundredth.
		{"a waterfall whose steps miss its total", "# T\n\n## W\n\nwaterfall\n\n- ours: 2.92 s\n- a cause: +7.10 s\n- today's: 10.05 s\n", `"today's" stands at 10.05 s, but the rows before it come to 10.02`},
	} {
		if _, err := ParseOutline([]byte(tc.outline)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ParseOutline = %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
	// A recording that is not there, and a code card whose code is not.
	dir := t.TempDir()
	for _, tc := range []struct{ name, outline, want string }{
		{"missing recording", "# T\n\n## R\n\nrecording: nowhere.html\n", "nowhere.html"},
		{"missing code", "# T\n\n## C\n\ncode: pkg/controller noSuchFunction\n\n## R\n\nrecording: " + filepath.Join("..", "..", "..", "..", "examples", "talk", "overlap.html") + "\n", "noSuchFunction"},
	} {
		file := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".md")
		outline := strings.ReplaceAll(tc.outline, "recording: ../", "recording: "+mustAbs(t, "../"))
		if err := os.WriteFile(file, []byte(outline), 0o644); err != nil {
			t.Fatal(err)
		}
		o, err := ReadOutline(file)
		if err == nil {
			_, err = o.Deck(repoRoot)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error naming %q", tc.name, err, tc.want)
		}
	}
}

func mustAbs(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return abs + string(filepath.Separator)
}

func TestACodeCardIsCutFromTheSourceWithItsMarkedLines(t *testing.T) {
	c, err := cutCode(repoRoot, CodeRef{Ref: source.Ref{Dir: "pkg/controller", Name: "ReplicationManager.syncReplicationController",
		Focus: "go func() {", Mark: []string{"rm.podControl.createReplica(ctx, controllerSpec)"}}})
	if err != nil {
		t.Fatal(err)
	}
	if c.File != "pkg/controller/replication_controller.go" || !strings.HasPrefix(c.Build, "2014") {
		t.Errorf("cut from %s (%s)", c.File, c.Build)
	}
	marked := 0
	for _, l := range c.Lines {
		if l.Marked {
			marked++
			if !strings.Contains(l.HTML, `<span class="f">createReplica</span>`) {
				t.Errorf("the marked line is %s", l.HTML)
			}
		}
		if strings.Contains(l.HTML, "<script") || (strings.Contains(l.HTML, "<") && !strings.Contains(l.HTML, "<span")) {
			t.Errorf("a line's HTML is not escaped: %s", l.HTML)
		}
	}
	if marked != 1 {
		t.Errorf("%d marked lines", marked)
	}
}

// A figure the outline cites from a page shows on the card as its value,
// without the reference's markers, which would show as raw HTML.
func TestACitedFigureShowsOnTheCardAsItsValue(t *testing.T) {
	o, err := ParseOutline([]byte("# T\n\n## Result\n\nToday took <!-- cite fairfight | scale-up N=1000: time to all running (s) | stack-today-parity -->8.52 s<!-- /cite --> to all running.\n"))
	if err != nil {
		t.Fatal(err)
	}
	body := o.Sections[0].Body
	if !strings.Contains(body, "Today took 8.52 s to all running.") || strings.Contains(body, "cite") {
		t.Errorf("the card reads %q, want the value alone", body)
	}
}

// A waterfall card's list is its rows: totals without a sign, steps with
// one (a minus sign either way), each total where its steps bring the
// last one, within the rounding of the figures shown.
func TestAWaterfallCardReadsItsRowsAndTheirSigns(t *testing.T) {
	o, err := ParseOutline([]byte("# T\n\n## Where the time goes\n\nFrom ours to today's.\n\nwaterfall\n\n" +
		"- ours: <!-- cite fairfight > w | ours | seconds | unit=s -->2.92 s<!-- /cite -->\n" +
		"- the scheduler: -0.00 s\n- today's itself: +7.10 s\n- today's: 10.02 s\n- a handicap, taken away: −1.5 s\n- today's as first run: 8.5 s\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := o.Sections[0]
	if s.Kind != "waterfall" || !strings.Contains(s.Body, "From ours to today") || strings.Contains(s.Body, "<li>") {
		t.Errorf("kind %q, body %q: want a waterfall whose body is its text and not its list", s.Kind, s.Body)
	}
	var got []string
	for _, b := range s.Bars {
		got = append(got, fmt.Sprintf("%s=%g/%v/%s", b.Label, b.Value, b.Step, b.Text))
	}
	want := "[ours=2.92/false/2.92 s the scheduler=-0/true/-0.00 s today's itself=7.1/true/+7.10 s today's=10.02/false/10.02 s " +
		"a handicap, taken away=-1.5/true/−1.5 s today's as first run=8.5/false/8.5 s]"
	if fmt.Sprint(got) != want {
		t.Errorf("bars %v,\nwant %s", got, want)
	}
}

// A citation writes a figure of a thousand or more in groups of three,
// as the prose does; a waterfall card reads such a figure as its number.
func TestAWaterfallCardReadsFiguresInGroupsOfThree(t *testing.T) {
	o, err := ParseOutline([]byte("# T\n\n## In milliseconds\n\nwaterfall\n\n" +
		"- ours: 2 330 ms\n- today's itself: +5 800 ms\n- today's: 8 130 ms\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []float64
	for _, b := range o.Sections[0].Bars {
		got = append(got, b.Value)
	}
	if fmt.Sprint(got) != "[2330 5800 8130]" {
		t.Errorf("bars %v, want [2330 5800 8130]", got)
	}
}

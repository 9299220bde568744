package publish

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/published"
)

// fakeRunner records the commands it is given instead of running
// clusters, and fails the first command of the page failOn.
type fakeRunner struct {
	calls  []string
	failOn string
}

func (f *fakeRunner) Run(ctx context.Context, page string, args []string) error {
	if page == f.failOn {
		f.failOn = ""
		return errors.New("interrupted")
	}
	f.calls = append(f.calls, page+": "+strings.Join(args, " "))
	return nil
}

// pagesRun lists the pages of the calls, once each, in order.
func (f *fakeRunner) pagesRun() []string {
	var out []string
	for _, c := range f.calls {
		p, _, _ := strings.Cut(c, ":")
		if len(out) == 0 || out[len(out)-1] != p {
			out = append(out, p)
		}
	}
	return out
}

// fakeRoot is a repository's top with a README holding the markers and
// every binary the pages need.
func fakeRoot(t *testing.T) string {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "examples"), 0o755); err != nil {
		t.Fatal(err)
	}
	readme := "# x\n\n## The last published runs\n\n" + published.ReadmeBegin + "\n" + published.ReadmeEnd + "\n"
	if err := os.WriteFile(filepath.Join(root, published.ReadmeFile), []byte(readme), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range published.Pages {
		for _, n := range p.Needs {
			path := filepath.Join(root, filepath.FromSlash(n))
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, nil, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

// clock returns a Now that moves a minute each time it is read.
func clock() func() time.Time {
	t := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(time.Minute)
		return t
	}
}

func TestThePlanUsesARunsOwnEstimateElseThePagesLastLength(t *testing.T) {
	root := fakeRoot(t)
	o := Options{Root: root, Commit: "abc1234", Estimate: func(p published.Page) (time.Duration, string, bool) {
		return time.Hour, "its plan", p.Name == "sweep"
	}}
	plan, err := Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Planned{}
	for _, pl := range plan {
		got[pl.Page.Name] = pl
		if pl.Done {
			t.Errorf("%s is planned as done at a commit nothing was published at", pl.Page.Name)
		}
	}
	if pl := got["sweep"]; pl.Estimate != time.Hour || pl.From != "its plan" {
		t.Errorf("sweep: %s from %q, want its own estimate, an hour", pl.Estimate, pl.From)
	}
	if pl := got["bench"]; pl.Estimate != 9*time.Minute+5*time.Second || !strings.Contains(pl.From, "96fe2d7") {
		t.Errorf("bench: %s from %q, want its last run's 9 min 05 s at 96fe2d7", pl.Estimate, pl.From)
	}
	if pl := got["deck"]; pl.Estimate != 0 || !strings.Contains(pl.From, "unknown") {
		t.Errorf("deck: %s from %q, want unknown", pl.Estimate, pl.From)
	}
	var b bytes.Buffer
	WritePlan(&b, o.Commit, plan)
	want := time.Hour + 9*time.Minute + 5*time.Second + 20*time.Minute + 52*time.Second + 12*time.Minute + 7*time.Second + 3*time.Minute + 57*time.Second
	if !strings.Contains(b.String(), "10 page(s) to run, about 106 min 1 s in all") || want != 106*time.Minute+time.Second {
		t.Errorf("the plan does not add up to %s:\n%s", want, b.String())
	}
}

func TestPublishRunsEveryPageAndResumesAfterTheLastOneFinished(t *testing.T) {
	root := fakeRoot(t)
	var log bytes.Buffer
	run := &fakeRunner{failOn: "history"}
	o := Options{Root: root, Commit: "abc1234", Runner: run, Log: &log, Now: clock()}
	if err := Publish(context.Background(), o); err == nil || !strings.Contains(err.Error(), "resumes here") {
		t.Fatalf("a failed page: %v, want an error saying publish resumes there", err)
	}
	if got, want := run.pagesRun(), []string{"bench", "originals", "sweep", "status-writes", "learner", "fairfight"}; !slices.Equal(got, want) {
		t.Errorf("before the failure ran %q, want %q", got, want)
	}
	stamps, err := published.ReadStamps(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"bench", "originals", "sweep", "status-writes", "learner", "fairfight"} {
		st, _ := stamps.Of(name)
		if st.Commit != "abc1234" || st.Seconds <= 0 || !slices.Equal(st.Inputs, published.Get(name).Inputs) {
			t.Errorf("%s's stamp %+v, want abc1234 with its length and inputs", name, st)
		}
	}
	if st, _ := stamps.Of("history"); st.Commit == "abc1234" {
		t.Errorf("the failed page was stamped: %+v", st)
	}

	run.calls = nil
	if err := Publish(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got, want := run.pagesRun(), []string{"history", "listcost", "talk", "deck"}; !slices.Equal(got, want) {
		t.Errorf("resuming ran %q, want %q", got, want)
	}
	if !strings.Contains(log.String(), "published at abc1234 already, skipped") {
		t.Errorf("the plan of the second run does not say what it skips:\n%s", log.String())
	}
	// Commands that take a commit are given this one; the deck's does not.
	for _, c := range run.calls {
		has := strings.Contains(c, " -commit=abc1234")
		if want := !strings.HasPrefix(c, "deck:"); has != want {
			t.Errorf("%s: -commit given %v, want %v", c, has, want)
		}
	}
	if n := strings.Count(strings.Join(run.calls, "\n"), "talk: demo -commit=abc1234 -scenario="); n != len(published.Get("talk").Commands) {
		t.Errorf("the talk recorded %d scenarios, want %d", n, len(published.Get("talk").Commands))
	}
	readme, _ := os.ReadFile(filepath.Join(root, published.ReadmeFile))
	block, _ := published.ReadmeBlock(string(readme))
	if strings.Count(block, "measured at `abc1234`") != len(published.Pages) {
		t.Errorf("the README's lines do not cite every page at abc1234:\n%s", block)
	}

	run.calls = nil
	if err := Publish(context.Background(), o); err != nil || len(run.calls) > 0 {
		t.Errorf("everything published: ran %q (%v), want nothing", run.calls, err)
	}
}

func TestPublishRunsOnlyTheSelectedPages(t *testing.T) {
	root := fakeRoot(t)
	run := &fakeRunner{}
	o := Options{Root: root, Commit: "abc1234", Pages: []string{"history", "sweep"}, Runner: run, Log: &bytes.Buffer{}, Now: clock()}
	if err := Publish(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got, want := run.pagesRun(), []string{"sweep", "history"}; !slices.Equal(got, want) {
		t.Errorf("PAGES=history,sweep ran %q, want %q, in the pages' order", got, want)
	}
	run.calls = nil
	o.Redo = true
	o.Pages = []string{"sweep"}
	if err := Publish(context.Background(), o); err != nil || !slices.Equal(run.pagesRun(), []string{"sweep"}) {
		t.Errorf("-redo of a published page ran %q (%v), want sweep", run.calls, err)
	}
	o.Pages = []string{"sweeep"}
	if err := Publish(context.Background(), o); err == nil || !strings.Contains(err.Error(), "sweeep") {
		t.Errorf("an unknown page: %v, want an error naming it", err)
	}
}

func TestPublishRefusesToStartWithoutTheBinariesAPageNeeds(t *testing.T) {
	root := fakeRoot(t)
	os.Remove(filepath.Join(root, "_output/v0.4/controller-manager"))
	run := &fakeRunner{}
	err := Publish(context.Background(), Options{Root: root, Commit: "abc1234", Runner: run, Log: &bytes.Buffer{}, Now: clock()})
	if err == nil || !strings.Contains(err.Error(), "_output/v0.4/controller-manager") || len(run.calls) > 0 {
		t.Errorf("without make original's binaries: %v, ran %q; want an error naming them before anything runs", err, run.calls)
	}
}

func TestDirtyIgnoresOnlyThePagesOwnOutputs(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"config", "user.email", "a@b"}, {"config", "user.name", "a"}} {
		if _, err := published.Git(root, args...); err != nil {
			t.Fatal(err)
		}
	}
	write := func(rel, text string) {
		os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755)
		os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644)
	}
	write("examples/bench/RESULTS.md", "a")
	write("pkg/controller/x.go", "a")
	if _, err := published.Git(root, "add", "."); err != nil {
		t.Fatal(err)
	}
	if _, err := published.Git(root, "commit", "-qm", "x"); err != nil {
		t.Fatal(err)
	}
	write("examples/bench/RESULTS.md", "b")
	write("examples/talk/idle.html", "b")
	write(published.StampsFile, "{}")
	if d, err := Dirty(root); err != nil || len(d) > 0 {
		t.Errorf("with only published pages changed: dirty %q (%v), want none", d, err)
	}
	write("pkg/controller/x.go", "b")
	if d, err := Dirty(root); err != nil || !slices.Equal(d, []string{"pkg/controller/x.go"}) {
		t.Errorf("with a package changed: dirty %q (%v), want pkg/controller/x.go", d, err)
	}
}

// pageWriter is a runner that publishes a listcost page whose median is
// the one it is given.
type pageWriter struct {
	root, median string
}

func (w *pageWriter) Run(ctx context.Context, page string, args []string) error {
	text := "# LIST of every pod\n\n| apiserver | pods | median |\n|---|---:|---:|\n| abc1234 | 150000 | " + w.median + " |\n"
	path := filepath.Join(w.root, "examples", "listcost", "RESULTS.md")
	os.MkdirAll(filepath.Dir(path), 0o755)
	return os.WriteFile(path, []byte(text), 0o644)
}

// TestPublishingAPageRewritesTheProseThatCitesIt: make publish
// PAGES=listcost changes the figures that cite the page, in the same run
// and so in the same commit as the page.
func TestPublishingAPageRewritesTheProseThatCitesIt(t *testing.T) {
	root := fakeRoot(t)
	prose := filepath.Join(root, "examples", "listcost", "README.md")
	os.MkdirAll(filepath.Dir(prose), 0o755)
	if err := os.WriteFile(prose, []byte("A LIST took <!-- cite listcost | * & pods=150000 | median -->2.20 s<!-- /cite -->.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	o := Options{Root: root, Commit: "abc1234", Pages: []string{"listcost"}, Runner: &pageWriter{root: root, median: "1.74 s"}, Log: &log, Now: clock()}
	if err := Publish(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(prose)
	if !strings.Contains(string(got), "-->1.74 s<") {
		t.Errorf("after the page was published the README says %q, want the page's 1.74 s", got)
	}
	if !strings.Contains(log.String(), "examples/listcost/README.md") {
		t.Errorf("make publish's last line does not name the prose it rewrote:\n%s", log.String())
	}
}

// TestAReferenceThePageNoLongerAnswersStopsNoPage: a README citing a
// row the republished page dropped is left as it was and named, the
// other prose is rewritten, and every selected page is still published.
func TestAReferenceThePageNoLongerAnswersStopsNoPage(t *testing.T) {
	root := fakeRoot(t)
	good := filepath.Join(root, "examples", "listcost", "README.md")
	bad := filepath.Join(root, "examples", "bench", "README.md")
	os.MkdirAll(filepath.Dir(good), 0o755)
	os.MkdirAll(filepath.Dir(bad), 0o755)
	os.WriteFile(good, []byte("<!-- cite listcost | * & pods=150000 | median -->2.20 s<!-- /cite -->\n"), 0o644)
	badText := "<!-- cite listcost | * & pods=150000 | a column gone -->1 s<!-- /cite --> and <!-- cite listcost | * & pods=150000 | median -->2.20 s<!-- /cite -->\n"
	os.WriteFile(bad, []byte(badText), 0o644)
	run := &pageWriter{root: root, median: "1.74 s"}
	var log bytes.Buffer
	o := Options{Root: root, Commit: "abc1234", Pages: []string{"listcost", "deck"}, Runner: run, Log: &log, Now: clock()}
	err := Publish(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), "examples/bench/README.md:1") || !strings.Contains(err.Error(), "every selected page is published") {
		t.Errorf("Publish: %v, want an error naming the reference, after publishing every page", err)
	}
	if got, _ := os.ReadFile(good); !strings.Contains(string(got), "-->1.74 s<") {
		t.Errorf("the readable prose was not rewritten: %q", got)
	}
	if got, _ := os.ReadFile(bad); string(got) != badText {
		t.Errorf("a file with a reference that cannot be read was changed: %q", got)
	}
	stamps, _ := published.ReadStamps(root)
	for _, page := range []string{"listcost", "deck"} {
		if st, ok := stamps.Of(page); !ok || st.Commit != "abc1234" {
			t.Errorf("%s is not stamped at abc1234: %+v", page, st)
		}
	}
}

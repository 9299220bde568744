package history

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestEveryEntryIsComplete checks that every change says what the
// catalogue promises: a name, references, a date and its source, what
// changed, and a scenario with its figure or a reason there is none.
func TestEveryEntryIsComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Changes {
		if c.Name == "" || seen[c.Name] {
			t.Errorf("change %q: empty or duplicate name", c.Name)
		}
		seen[c.Name] = true
		if len(c.PRs) == 0 || c.Date == "" || c.What == "" || c.Title == "" || len(c.Code) == 0 {
			t.Errorf("%s: missing PRs, date, title, what or code", c.Name)
		}
		for _, ref := range c.Refs() {
			if !refPattern.MatchString(ref) {
				t.Errorf("%s: reference %q is not #<number>", c.Name, ref)
			}
		}
		if c.Scenario == "" && c.Unshown == "" {
			t.Errorf("%s: neither a scenario nor a reason why none shows it", c.Name)
		}
		if c.Scenario != "" {
			// That the scenario exists, pkg/lab/scenario/scripts's tests check:
			// it imports this catalogue.
			if c.Figure == "" || c.With == "" || c.Without == "" {
				t.Errorf("%s: a scenario without a figure or the outcomes with and without", c.Name)
			}
			if (c.Cost == "") != c.WithoutMore {
				t.Errorf("%s: Cost must say what the change buys exactly when its figure is better without it", c.Name)
			}
		}
		if (c.Switch == "") == (c.NoSwitch == "") {
			t.Errorf("%s: needs exactly one of Switch and NoSwitch", c.Name)
		}
	}
	if len(Changes) == 0 {
		t.Error("the catalogue is empty")
	}
}

// TestCodePlacesExist parses the files each change points at and finds
// the declarations it names, so the catalogue cannot point at code that
// moved.
func TestCodePlacesExist(t *testing.T) {
	for _, c := range Changes {
		for _, p := range c.Code {
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join("..", "..", p.File), nil, 0)
			if err != nil {
				t.Errorf("%s: %v", c.Name, err)
				continue
			}
			if !declares(f, p.Decl) {
				t.Errorf("%s: %s declares no %s", c.Name, p.File, p.Decl)
			}
		}
	}
}

var refPattern = regexp.MustCompile(`^#[1-9][0-9]*$`)

func declares(f *ast.File, decl string) bool {
	recv, name, method := strings.Cut(decl, ".")
	if !method {
		name, recv = recv, ""
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name != name {
				continue
			}
			if recv == "" && d.Recv == nil {
				return true
			}
			if recv != "" && d.Recv != nil {
				typ := d.Recv.List[0].Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				if id, ok := typ.(*ast.Ident); ok && id.Name == recv {
					return true
				}
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.Name == name && recv == "" {
						return true
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name == name && recv == "" {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// TestParseWithout checks that -without takes catalogue names and refuses
// others with the list of valid ones.
func TestParseWithout(t *testing.T) {
	off, err := ParseWithout("expectations, slow-start")
	if err != nil || !off["expectations"] || !off["slow-start"] || len(off) != 2 {
		t.Fatalf("ParseWithout = %v, %v", off, err)
	}
	if got := FormatWithout(off); got != "expectations,slow-start" {
		t.Errorf("FormatWithout = %q", got)
	}
	for _, bad := range []string{"expectation", "endpoints-informer"} {
		_, err := ParseWithout(bad)
		if err == nil || !strings.Contains(err.Error(), "slow-start") || !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseWithout(%q) = %v, want an error naming it and the valid names", bad, err)
		}
	}
}

// TestEveryDateLinksAPublicSource: every pull request of every change has
// its merge dated, and every date links a public page a reader can open; a
// day is pinned by its merge commit upstream, and a date that is not a day
// says what its pages show.
func TestEveryDateLinksAPublicSource(t *testing.T) {
	for _, c := range Changes {
		for _, p := range dateProblems(c) {
			t.Errorf("%s: %s", c.Name, p)
		}
	}
}

// TestDateProblemsCatchesWhatItMust plants each fault dateProblems guards
// against in an otherwise sound entry, and checks that it is reported.
func TestDateProblemsCatchesWhatItMust(t *testing.T) {
	sound := func() Change {
		return Change{Name: "planted", PRs: []string{"#1", "#2"}, Date: "2015-04-03", Merged: []Merge{{
			PR: "#1", Date: "2015-04-03", Brought: "a limit",
			Sources: []Source{commit("88dbdc4a692418fb8a3c0dc13acd9a17d4d6b778")},
		}, {
			PR: "#2", Date: "2021", Known: "opened on 2021-02-18; in v1.21.0's changelog", Brought: "a ranking",
			Sources: []Source{pull("2", "opened on 2021-02-18"), changelog("1.21", "v1.21.0")},
		}}}
	}
	if p := dateProblems(sound()); len(p) != 0 {
		t.Fatalf("a sound entry is reported: %v", p)
	}
	faults := map[string]func(c *Change){
		"a date without a source":         func(c *Change) { c.Merged[0].Sources = nil },
		"a day pinned by no merge commit": func(c *Change) { c.Merged[0].Sources = []Source{pull("1", "the thread")} },
		"a source that is not public":     func(c *Change) { c.Merged[1].Sources[1].URL = "file:///home/me/notes.md" },
		"a source on plain http":          func(c *Change) { c.Merged[1].Sources[0].URL = "http://github.com/kubernetes/kubernetes/pull/2" },
		"a source on a private address":   func(c *Change) { c.Merged[1].Sources[0].URL = "https://127.0.0.1:8080/pull/2" },
		"a source that is a bare word":    func(c *Change) { c.Merged[1].Sources[0].URL = "the project's research notes" },
		"a bound without what is known":   func(c *Change) { c.Merged[1].Known = "" },
		"a date of no form":               func(c *Change) { c.Merged[1].Date = "early 2021" },
		"a day that does not exist":       func(c *Change) { c.Merged[0].Date, c.Date = "2015-02-30", "2015-02-30" },
		"a change dated unlike its PR":    func(c *Change) { c.Date = "2015-04" },
		"a PR without its merge":          func(c *Change) { c.Merged = c.Merged[:1] },
		"merges out of the PRs' order":    func(c *Change) { c.Merged[0], c.Merged[1] = c.Merged[1], c.Merged[0] },
	}
	for name, plant := range faults {
		c := sound()
		plant(&c)
		if len(dateProblems(c)) == 0 {
			t.Errorf("%s is not reported", name)
		}
	}
}

var (
	datePattern   = regexp.MustCompile(`^\d{4}(-\d{2}(-\d{2}|/\d{2})?)?$`)
	commitPattern = regexp.MustCompile(`^https://github\.com/kubernetes/kubernetes/commit/[0-9a-f]{40}$`)
)

// dateProblems says what is wrong with a change's dates and their sources.
func dateProblems(c Change) []string {
	var out []string
	if len(c.Merged) != len(c.PRs) {
		out = append(out, "PRs and their merges differ in number")
	}
	for i, m := range c.Merged {
		if i < len(c.PRs) && m.PR != c.PRs[i] {
			out = append(out, m.PR+": merges not in the order of PRs")
		}
		if m.Brought == "" {
			out = append(out, m.PR+": does not say what it brought")
		}
		if !datePattern.MatchString(m.Date) {
			out = append(out, m.PR+": date "+m.Date+" is neither a day, a month, a span of months nor a year")
		} else if m.Pinned() {
			if _, err := time.Parse("2006-01-02", m.Date); err != nil {
				out = append(out, m.PR+": "+err.Error())
			}
		} else if m.Known == "" {
			out = append(out, m.PR+": date "+m.Date+" is not a day, and Known does not say what its pages show")
		}
		if len(m.Sources) == 0 {
			out = append(out, m.PR+": date "+m.Date+" links no source")
		}
		pinned := false
		for _, s := range m.Sources {
			if err := publicURL(s.URL); err != nil {
				out = append(out, m.PR+": "+err.Error())
			}
			if s.Shows == "" {
				out = append(out, m.PR+": "+s.URL+" does not say what it shows")
			}
			pinned = pinned || commitPattern.MatchString(s.URL)
		}
		if m.Pinned() && !pinned {
			out = append(out, m.PR+": day "+m.Date+" is not linked to its merge commit")
		}
	}
	if len(c.Merged) > 0 && c.Date != c.Merged[0].Date {
		out = append(out, "date "+c.Date+" is not its first PR's, "+c.Merged[0].Date)
	}
	return out
}

// publicURL reports why u is not a page anyone can open: it must be https
// on a public host name.
func publicURL(u string) error {
	p, err := url.Parse(u)
	if err != nil {
		return err
	}
	host := p.Hostname()
	switch {
	case p.Scheme != "https":
		return fmt.Errorf("%q is not an https URL", u)
	case host == "" || !strings.Contains(host, ".") || net.ParseIP(host) != nil:
		return fmt.Errorf("%q names no public host", u)
	case host == "localhost" || strings.HasSuffix(host, ".local") || strings.HasSuffix(host, ".internal"):
		return fmt.Errorf("%q names a private host", u)
	case p.User != nil || p.Path == "" || p.Path == "/":
		return fmt.Errorf("%q is not a page", u)
	}
	return nil
}

// TestChangesAreInTheOrderTheyLanded: by the day (or the earliest bound)
// their first pull request merged.
func TestChangesAreInTheOrderTheyLanded(t *testing.T) {
	for i := 1; i < len(Changes); i++ {
		if Changes[i].Date < Changes[i-1].Date {
			t.Errorf("%s (%s) comes after %s (%s)", Changes[i].Name, Changes[i].Date, Changes[i-1].Name, Changes[i-1].Date)
		}
	}
}

// TestTheCatalogueCitesOnlyWhatAReaderCanOpen: no text of the catalogue
// points at notes outside the repository or at the machine that checked
// it.
func TestTheCatalogueCitesOnlyWhatAReaderCanOpen(t *testing.T) {
	banned := []string{"research notes", "notes (", "available here", "history available", "not verified",
		"/work/", "/tmp/", "/home/", "this machine"}
	for _, c := range Changes {
		eachString(reflect.ValueOf(c), func(s string) {
			for _, b := range banned {
				if strings.Contains(strings.ToLower(s), b) {
					t.Errorf("%s: %q says %q", c.Name, s, b)
				}
			}
		})
	}
}

func eachString(v reflect.Value, f func(string)) {
	switch v.Kind() {
	case reflect.String:
		f(v.String())
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			eachString(v.Field(i), f)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			eachString(v.Index(i), f)
		}
	}
}

// countPages are the hand-written pages; the catalogue's size is not
// written on them, since only a page made from the catalogue can keep it
// right.
var countPages = []string{"README.md", "pkg/README.md", "cmd/README.md", "examples/*/README.md"}

// catalogueCount is a count of changes written out: "a dozen changes",
// "13 entries". A sentence that says "measured" counts a run, which its
// page wrote, and is not one.
var catalogueCount = regexp.MustCompile(`(?i)\b(\d+|a dozen|dozen|a score|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)\s+(?:switchable\s+|catalogued\s+|historical\s+)?(changes|entries|fixes)\b`)

// TestPagesLeaveTheCountToTheCatalogue fails when a hand-written page says
// how many changes the catalogue has.
func TestPagesLeaveTheCountToTheCatalogue(t *testing.T) {
	for _, glob := range countPages {
		files, err := filepath.Glob(filepath.Join("..", "..", glob))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no page (%v)", glob, err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, where := range catalogueCounts(string(b)) {
				t.Errorf("%s says %q: the catalogue has %d changes, and a count written by hand falls behind it; "+
					"name the catalogue (pkg/history) instead, or let a page made from it count", f, where, len(Changes))
			}
		}
	}
}

func TestCatalogueCountsFindsCountsAndLeavesRunTallies(t *testing.T) {
	for text, want := range map[string]int{
		"Between the v0.4 manager and today's lie a dozen changes.":     1,
		"The catalogue has 13 entries, all\nswitchable but two.":        1,
		"11 of the 12 changes it measured showed their effect.":         0,
		"The run measured 12 changes. Fourteen changes are catalogued.": 1,
		"Each change can be switched off.":                              0,
	} {
		if got := len(catalogueCounts(text)); got != want {
			t.Errorf("%q: %d counts, want %d", text, got, want)
		}
	}
}

// catalogueCounts returns the counts of changes in a text, outside
// sentences about a run's measurements.
func catalogueCounts(text string) []string {
	var out []string
	for _, loc := range catalogueCount.FindAllStringIndex(text, -1) {
		start := 0
		for _, stop := range []string{". ", ".\n", "\n\n"} {
			if i := strings.LastIndex(text[:loc[0]], stop); i >= 0 && i+len(stop) > start {
				start = i + len(stop)
			}
		}
		end := len(text)
		for _, stop := range []string{". ", ".\n", "\n\n"} {
			if i := strings.Index(text[loc[1]:], stop); i >= 0 && loc[1]+i < end {
				end = loc[1] + i
			}
		}
		sentence := text[start:end]
		if strings.Contains(sentence, "measured") {
			continue
		}
		out = append(out, strings.Join(strings.Fields(text[loc[0]:loc[1]]), " "))
	}
	return out
}

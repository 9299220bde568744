package testreport

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/mdtable"
)

// A Target is what one mutation run covers: a package folder and the
// packages below it, in one build, or only some files of it.
type Target struct {
	// Dir is the package folder, relative to the module ("pkg/controller").
	Dir string `json:"package"`
	// Files, when set, limits the run to these files of Dir.
	Files []string `json:"files,omitempty"`
	// Build is 2014 or modern (-tags modern).
	Build string `json:"build"`
	// Explain says every mutant of the target that lives must have its
	// reason in the explanations.
	Explain bool `json:"explain,omitempty"`
}

// Name is the target as the page names it.
func (t Target) Name() string {
	name := t.Dir
	if len(t.Files) > 0 {
		name += " (" + strings.Join(t.Files, ", ") + ")"
	}
	return name
}

// Mutant is one mutation of one place in the source.
type Mutant struct {
	// File is relative to the module.
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Mutator is gremlins' name for the change (CONDITIONALS_NEGATION:
	// == to !=, < to >=; CONDITIONALS_BOUNDARY: < to <=; ARITHMETIC_BASE:
	// + to -, * to /; INCREMENT_DECREMENT: ++ to --; INVERT_NEGATIVES: -x
	// to +x).
	Mutator string `json:"mutator"`
	// Status is LIVED (every test passed), NOT COVERED (no test runs the
	// line), KILLED, TIMED OUT or NOT VIABLE (it does not compile).
	Status string `json:"status"`
	// Code is the line mutated, trimmed.
	Code string `json:"code"`
}

// Result is one target's run.
type Result struct {
	Target
	Commit string `json:"commit"`
	Date   string `json:"date"`
	// Load is the machine's load average during the run, and Cores its
	// processors.
	Load  string `json:"load"`
	Cores int    `json:"cores"`
	// Minutes is how long the run took.
	Minutes float64 `json:"minutes"`
	// Timeout is how long a mutant's tests ran before it counted as hung.
	Timeout string `json:"timeout,omitempty"`
	// Counts holds the number of mutants by status.
	Counts map[string]int `json:"counts"`
	// Survivors are the mutants no test caught: LIVED and NOT COVERED.
	Survivors []Mutant `json:"survivors"`
}

// The statuses, in the order the page gives them.
const (
	Killed     = "KILLED"
	TimedOut   = "TIMED OUT"
	Lived      = "LIVED"
	NotCovered = "NOT COVERED"
	NotViable  = "NOT VIABLE"
)

// Caught is the share of the mutants that compiled which a test caught:
// it failed, or it hung until gremlins' timeout (a mutated loop that never
// ends fails its test the same way, only later).
func (r Result) Caught() float64 {
	caught := r.Counts[Killed] + r.Counts[TimedOut]
	all := caught + r.Counts[Lived] + r.Counts[NotCovered]
	if all == 0 {
		return 0
	}
	return float64(caught) / float64(all)
}

// gremlinsOutput is the part of gremlins' -o file read here.
type gremlinsOutput struct {
	Files []struct {
		Name      string `json:"file_name"`
		Mutations []struct {
			Type   string `json:"type"`
			Status string `json:"status"`
			Line   int    `json:"line"`
			Column int    `json:"column"`
		} `json:"mutations"`
	} `json:"files"`
}

// ReadGremlins reads gremlins' -o file for target t, run in the folder t.Dir
// of the module at root, into counts and survivors; each survivor carries
// its line of source, read from root.
//
// gremlins counts a mutant whose package no longer compiles as killed: go
// test exits 1 on a build failure as on a failing test. viable, when
// given, is asked about each ARITHMETIC_BASE mutant, the one kind that can
// fail to compile (a + between strings made a -), killed, lived or not
// covered, and a mutant it says does not compile counts as NOT VIABLE.
func ReadGremlins(r io.Reader, root string, t Target, viable func(Mutant) bool) (map[string]int, []Mutant, error) {
	var out gremlinsOutput
	if err := json.NewDecoder(r).Decode(&out); err != nil {
		return nil, nil, err
	}
	counts := map[string]int{}
	var survivors []Mutant
	for _, f := range out.Files {
		file := filepath.ToSlash(filepath.Join(t.Dir, f.Name))
		for _, m := range f.Mutations {
			mut := Mutant{File: file, Line: m.Line, Column: m.Column, Mutator: m.Type, Status: m.Status}
			if mut.Mutator == "ARITHMETIC_BASE" && mut.Status != NotViable && mut.Status != TimedOut && viable != nil && !viable(mut) {
				mut.Status = NotViable
			}
			counts[mut.Status]++
			if mut.Status != Lived && mut.Status != NotCovered {
				continue
			}
			code, err := sourceLine(filepath.Join(root, file), m.Line)
			if err != nil {
				return nil, nil, err
			}
			mut.Code = code
			survivors = append(survivors, mut)
		}
	}
	sort.Slice(survivors, func(i, j int) bool {
		a, b := survivors[i], survivors[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Mutator < b.Mutator
	})
	return counts, survivors, nil
}

// sourceLine returns line n of file, trimmed.
func sourceLine(file string, n int) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for i := 1; sc.Scan(); i++ {
		if i == n {
			return strings.TrimSpace(sc.Text()), nil
		}
	}
	return "", fmt.Errorf("%s has no line %d", file, n)
}

// An Explanation says why a mutant lives: where, by the mutated line's
// text and the column of the change in it, so that it follows the line
// when lines above it move.
type Explanation struct {
	File    string
	Mutator string
	Column  int
	Code    string
	Why     string
}

func (e Explanation) key() string {
	return fmt.Sprintf("%s|%s|%d|%s", e.File, e.Mutator, e.Column, e.Code)
}

func (m Mutant) key() string {
	return fmt.Sprintf("%s|%s|%d|%s", m.File, m.Mutator, m.Column, m.Code)
}

// ReadExplanations reads the explanations: one a line, five fields
// separated by " | ": the file, the mutator, the column, the line's code,
// and why the mutant lives. Blank lines and lines starting with # are
// passed over; a line may go on over the next ones, indented.
func ReadExplanations(r io.Reader) ([]Explanation, error) {
	var lines []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#"):
		case (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) && len(lines) > 0:
			lines[len(lines)-1] += " " + strings.TrimSpace(l)
		default:
			lines = append(lines, l)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var out []Explanation
	for _, l := range lines {
		f := strings.SplitN(l, " | ", 5)
		if len(f) != 5 {
			return nil, fmt.Errorf("%q: want <file> | <mutator> | <column> | <code> | <why>", l)
		}
		var col int
		if _, err := fmt.Sscanf(f[2], "%d", &col); err != nil {
			return nil, fmt.Errorf("%q: column %q: %v", l, f[2], err)
		}
		e := Explanation{File: strings.TrimSpace(f[0]), Mutator: strings.TrimSpace(f[1]), Column: col, Code: strings.TrimSpace(f[3]), Why: strings.TrimSpace(f[4])}
		if e.Why == "" {
			return nil, fmt.Errorf("%q: no reason given", l)
		}
		out = append(out, e)
	}
	return out, nil
}

// Explain returns the reason for m, or "".
func Explain(explanations []Explanation, m Mutant) string {
	for _, e := range explanations {
		if e.key() == m.key() {
			return e.Why
		}
	}
	return ""
}

// Unexplained returns the survivors of the results that must be explained
// and are not.
func Unexplained(results []Result, explanations []Explanation) []Mutant {
	var out []Mutant
	for _, r := range results {
		if !r.Explain {
			continue
		}
		for _, m := range r.Survivors {
			if Explain(explanations, m) == "" {
				out = append(out, m)
			}
		}
	}
	return out
}

// Merge returns old with every result of the same target as one of runs
// replaced by it, and the others kept: a run of some packages leaves the
// others' published results as they were, each with its commit.
func Merge(old, runs []Result) []Result {
	key := func(r Result) string { return r.Target.Name() + " " + r.Build }
	fresh := map[string]bool{}
	for _, r := range runs {
		fresh[key(r)] = true
	}
	var out []Result
	for _, r := range old {
		if !fresh[key(r)] {
			out = append(out, r)
		}
	}
	out = append(out, runs...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Dir != out[j].Dir {
			return out[i].Dir < out[j].Dir
		}
		return out[i].Build < out[j].Build
	})
	return out
}

// figures is how the page has always ruled the columns it aligns right:
// --:, which renders as mdtable.Right does; a new run then changes the
// published page only where its figures change.
const figures mdtable.Align = "--:"

// WritePage writes the page of the results: the share of mutants caught
// per package and build, then each survivor that must be explained, with
// its reason.
func WritePage(w io.Writer, results []Result, explanations []Explanation) {
	fmt.Fprintf(w, "# Mutation score\n\n")
	fmt.Fprintf(w, "Written by `make mutate`: [github.com/go-gremlins/gremlins](https://github.com/go-gremlins/gremlins) v0.6.0 changed one\n")
	fmt.Fprintf(w, "operator at a time in each package (its default mutators) and ran the package's tests\n")
	fmt.Fprintf(w, "against each change; [README.md](README.md) says how to read it and how to rerun it.\n\n")
	score := mdtable.Table{
		Header: []string{"package", "build", "mutants", "killed", "hung", "lived", "not covered", "not viable", "caught", "commit, date", "minutes", "hung after", "load (cores)"},
		Align: []mdtable.Align{mdtable.Left, mdtable.Left, figures, figures, figures, figures, figures, figures, figures,
			mdtable.Left, figures, figures, mdtable.Left},
	}
	for _, r := range results {
		total := 0
		for _, n := range r.Counts {
			total += n
		}
		timeout := r.Timeout
		if timeout == "" {
			timeout = "–"
		}
		score.Rows = append(score.Rows, []string{
			r.Name(), r.Build, strconv.Itoa(total), strconv.Itoa(r.Counts[Killed]), strconv.Itoa(r.Counts[TimedOut]),
			strconv.Itoa(r.Counts[Lived]), strconv.Itoa(r.Counts[NotCovered]), strconv.Itoa(r.Counts[NotViable]),
			fmt.Sprintf("%.0f %%", 100*r.Caught()), fmt.Sprintf("`%s`, %s", r.Commit, r.Date), fmt.Sprintf("%.0f", r.Minutes),
			timeout, fmt.Sprintf("%s (%d)", r.Load, r.Cores),
		})
	}
	mdtable.Write(w, score)
	fmt.Fprintf(w, "## Every mutant that lives in the managers and the crash checker\n\n")
	n := 0
	for _, r := range results {
		if !r.Explain || len(r.Survivors) == 0 {
			continue
		}
		fmt.Fprintf(w, "### %s, %s build\n\n", r.Name(), r.Build)
		survivors := mdtable.Table{Header: []string{"where", "mutator", "status", "code", "why it lives"}}
		for _, m := range r.Survivors {
			why := Explain(explanations, m)
			if why == "" {
				why = "**unexplained**"
			}
			survivors.Rows = append(survivors.Rows, []string{
				fmt.Sprintf("%s:%d:%d", m.File, m.Line, m.Column), m.Mutator, m.Status, "`" + m.Code + "`", why,
			})
			n++
		}
		mdtable.Write(w, survivors)
	}
	if n == 0 {
		fmt.Fprintf(w, "None.\n")
	}
}

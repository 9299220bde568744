package publish

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/published"
)

// Runner runs one command of a page: rcbench with args, from the
// repository's top. make publish runs the real rcbench; tests a fake.
type Runner interface {
	Run(ctx context.Context, page string, args []string) error
}

// Options are make publish's.
type Options struct {
	// Root is the repository.
	Root string
	// Commit is HEAD's, at which every page is measured.
	Commit string
	// Pages selects pages by name (PAGES=sweep,history); empty is all.
	Pages []string
	// Redo runs the selected pages even where they were published at
	// Commit already.
	Redo bool
	// Estimate is a run's own estimate of its length, where it has one,
	// and what it is ("the sweep's plan").
	Estimate func(published.Page) (time.Duration, string, bool)
	Runner   Runner
	Log      io.Writer
	Now      func() time.Time
}

// Planned is one page of a plan.
type Planned struct {
	Page published.Page
	// Done says the page was published at the plan's commit already, and
	// is not run again.
	Done bool
	// Estimate is how long its run should take, and From where that
	// comes from; zero when nothing says.
	Estimate time.Duration
	From     string
	// Missing are binaries it needs that are not built.
	Missing []string
}

// Select returns the pages names select, in published.Pages' order;
// empty selects every page.
func Select(names []string) ([]published.Page, error) {
	if len(names) == 0 {
		return published.Pages, nil
	}
	for _, n := range names {
		if published.Get(n) == nil {
			return nil, fmt.Errorf("no published page %q (the pages: %s)", n, strings.Join(published.Names(), ", "))
		}
	}
	var out []published.Page
	for _, p := range published.Pages {
		if slices.Contains(names, p.Name) {
			out = append(out, p)
		}
	}
	return out, nil
}

// Plan says what make publish will run, page by page, and how long each
// should take: the run's own estimate where it has one, else the length
// of the page's last run.
func Plan(o Options) ([]Planned, error) {
	pages, err := Select(o.Pages)
	if err != nil {
		return nil, err
	}
	stamps, err := published.ReadStamps(o.Root)
	if err != nil {
		return nil, err
	}
	var plan []Planned
	for _, p := range pages {
		pl := Planned{Page: p}
		if st, ok := stamps.Of(p.Name); ok && !o.Redo && st.Commit == o.Commit && o.Commit != "" && slices.Contains(stampedPages(stamps), p.Name) {
			pl.Done = true
		}
		if o.Estimate != nil {
			if d, from, ok := o.Estimate(p); ok {
				pl.Estimate, pl.From = d, from
			}
		}
		if pl.From == "" {
			if st, ok := stamps.Of(p.Name); ok && st.Seconds > 0 {
				pl.Estimate, pl.From = st.Length(), fmt.Sprintf("its last run's, at %s", st.Commit)
			} else {
				pl.From = "unknown: no estimate and no earlier length"
			}
		}
		for _, n := range p.Needs {
			if _, err := os.Stat(filepath.Join(o.Root, filepath.FromSlash(n))); err != nil {
				pl.Missing = append(pl.Missing, n)
			}
		}
		plan = append(plan, pl)
	}
	return plan, nil
}

// stampedPages are the pages StampsFile itself stamps, not the
// declared earlier table.
func stampedPages(s *published.Stamps) []string {
	var out []string
	for _, st := range s.Pages {
		out = append(out, st.Page)
	}
	return out
}

// WritePlan prints the plan: each page, what it runs and how long it
// should take, and the total of what is left.
func WritePlan(w io.Writer, commit string, plan []Planned) {
	var left time.Duration
	todo := 0
	fmt.Fprintf(w, "make publish at %s: %d page(s)\n", commit, len(plan))
	for i, pl := range plan {
		state := "to run"
		if pl.Done {
			state = "published at " + commit + " already, skipped (-redo runs it again)"
		} else {
			todo++
			left += pl.Estimate
		}
		length := "?"
		if pl.Estimate > 0 {
			length = published.FormatDuration(pl.Estimate)
		}
		fmt.Fprintf(w, "  %d. %-9s %-9s %s (%s), %d command(s), %s\n", i+1, pl.Page.Name, length, state, pl.From, len(pl.Page.Commands), pl.Page.Link)
		if len(pl.Missing) > 0 && !pl.Done {
			fmt.Fprintf(w, "     needs %s, not built (make upstream; make original V04_SRC=...)\n", strings.Join(pl.Missing, ", "))
		}
	}
	fmt.Fprintf(w, "planned: %d page(s) to run, about %s in all\n", todo, published.FormatDuration(left))
}

// Publish runs the plan's pages that are not done, in order, stamping
// each and rewriting the README's lines as it finishes, so that a
// publish stopped half-way resumes where it stopped.
func Publish(ctx context.Context, o Options) error {
	if o.Commit == "" {
		return fmt.Errorf("no commit to publish at")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	plan, err := Plan(o)
	if err != nil {
		return err
	}
	WritePlan(o.Log, o.Commit, plan)
	for _, pl := range plan {
		if len(pl.Missing) > 0 && !pl.Done {
			return fmt.Errorf("page %s needs %s: build them first (make upstream; make original V04_SRC=...), or leave the page out with PAGES=", pl.Page.Name, strings.Join(pl.Missing, ", "))
		}
	}
	began := o.Now()
	var rewritten []string
	var left time.Duration
	for _, pl := range plan {
		if !pl.Done {
			left += pl.Estimate
		}
	}
	for i, pl := range plan {
		if pl.Done {
			continue
		}
		start := o.Now()
		fmt.Fprintf(o.Log, "\n[%d/%d] %s: started after %s; about %s for it, %s left in all\n", i+1, len(plan), pl.Page.Name,
			published.FormatDuration(start.Sub(began)), published.FormatDuration(pl.Estimate), published.FormatDuration(left))
		for j, cmd := range pl.Page.Commands {
			args := append([]string(nil), cmd...)
			if pl.Page.TakesCommit {
				args = append(args[:1], append([]string{"-commit=" + o.Commit}, args[1:]...)...)
			}
			if len(pl.Page.Commands) > 1 {
				fmt.Fprintf(o.Log, "[%d/%d] %s: command %d of %d: rcbench %s\n", i+1, len(plan), pl.Page.Name, j+1, len(pl.Page.Commands), strings.Join(args, " "))
			}
			if err := o.Runner.Run(ctx, pl.Page.Name, args); err != nil {
				return fmt.Errorf("page %s: rcbench %s: %v (the pages before it are published and stamped; make publish again resumes here)", pl.Page.Name, strings.Join(args, " "), err)
			}
		}
		took := o.Now().Sub(start)
		stamps, err := published.ReadStamps(o.Root)
		if err != nil {
			return err
		}
		stamps.Set(published.Stamp{Page: pl.Page.Name, Commit: o.Commit, Started: start.UTC().Truncate(time.Second), Seconds: took.Round(time.Second).Seconds(), Inputs: pl.Page.Inputs})
		if err := stamps.Write(o.Root); err != nil {
			return err
		}
		// A reference the page no longer answers stops no page: the
		// rest are published, and the run ends saying which to mend.
		changed, err := UpdateProse(o.Root, o.Commit)
		rewritten = appendNew(rewritten, changed...)
		if err != nil {
			fmt.Fprintf(o.Log, "[%d/%d] %s: published, but some prose cannot cite it as it is now: %v\n", i+1, len(plan), pl.Page.Name, err)
		}
		left -= pl.Estimate
		fmt.Fprintf(o.Log, "[%d/%d] %s: published in %s, stamped in %s\n", i+1, len(plan), pl.Page.Name, published.FormatDuration(took), published.StampsFile)
	}
	changed, err := UpdateProse(o.Root, o.Commit)
	rewritten = appendNew(rewritten, changed...)
	if err != nil {
		return fmt.Errorf("every selected page is published at %s, but the prose cannot cite them all as they are now (mend the references rcbench publish -check names, then run rcbench publish -readme): %w", o.Commit, err)
	}
	fmt.Fprintf(o.Log, "make publish: every selected page is published at %s (%s); commit examples/ and the prose rewritten to cite them (%s)\n", o.Commit, published.FormatDuration(o.Now().Sub(began)), strings.Join(rewritten, ", "))
	return nil
}

// appendNew appends the items of more that list lacks.
func appendNew(list []string, more ...string) []string {
	for _, m := range more {
		if !slices.Contains(list, m) {
			list = append(list, m)
		}
	}
	return list
}

// UpdateProse rewrites what the prose says of the pages, from the pages
// and their stamps: the README's lines about each page (as of commit;
// empty is HEAD's), its sentence of what each showed, and every figure
// a Markdown file cites. It returns the files it changed.
func UpdateProse(root, commit string) ([]string, error) {
	readme, err := published.UpdateReadme(root, commit)
	if err != nil {
		return nil, err
	}
	showed, showedErr := published.UpdateShowed(root)
	changed, err := published.FillProse(root)
	if (readme || showed) && !slices.Contains(changed, published.ReadmeFile) {
		changed = append([]string{published.ReadmeFile}, changed...)
	}
	return changed, errors.Join(showedErr, err)
}

// Dirty returns what git status shows changed in the tree at root
// outside the pages' own outputs, StampsFile and the prose that cites
// them (every README), which a publish stopped half-way leaves changed.
func Dirty(root string) ([]string, error) {
	out, err := published.Git(root, "status", "--porcelain", "--untracked-files=all")
	if err != nil {
		return nil, err
	}
	prose, err := published.ProseFiles(root)
	if err != nil {
		return nil, err
	}
	allowed := append([]string{published.StampsFile}, prose...)
	for _, p := range published.Pages {
		allowed = append(allowed, p.Outputs()...)
	}
	var dirty []string
	for _, line := range strings.Split(out, "\n") {
		if len(line) < 4 {
			continue
		}
		file := line[3:]
		if _, to, ok := strings.Cut(file, " -> "); ok {
			file = to
		}
		ok := false
		for _, a := range allowed {
			ok = ok || published.Covers(a, file)
		}
		if !ok {
			dirty = append(dirty, file)
		}
	}
	return dirty, nil
}

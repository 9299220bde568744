package pages

// The history page: pkg/history's catalogue, one entry per change, with
// the figure the last history run measured with and without it. Every
// "(history: name)" on the other pages links to an entry here.

import (
	"fmt"
	"html/template"
	"path"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/history"
	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate"
)

// HistoryTitle is the history page's heading.
const HistoryTitle = "From 2014 to today: the history"

type refLink struct {
	Href, Text string
}

type changeView struct {
	ID, Title, Date, DateSource string
	N                           int
	PRs, Issues                 []refLink
	What                        template.HTML
	Scenario, Figure            string
	With, Without               template.HTML
	Unshown                     template.HTML
	Measured                    *Measured
	RunNote                     template.HTML
	Code                        []annotate.Link
	Switch, NoSwitch            template.HTML
	// Merged dates each PR; DateSource is the first page dating the change.
	Merged []mergeView
	// Cost says what a change buys with the figure it costs; Better
	// says which side the figure favours, from the run's page or, when
	// the page does not say, from the catalogue.
	Cost   template.HTML
	Better string
}

// mergeView is one PR's merge: when, what it brought, and the public
// pages that date it.
type mergeView struct {
	PR            refLink
	When, Brought string
	Sources       []refLink
}

func mergeViews(c history.Change) []mergeView {
	var out []mergeView
	for _, m := range c.Merged {
		v := mergeView{PR: upstream([]string{m.PR}, "pull")[0], When: "merged " + m.Date, Brought: m.Brought}
		if m.Pinned() {
			v.When += " (UTC)"
		} else {
			v.When += " (" + m.Known + ")"
		}
		for _, s := range m.Sources {
			v.Sources = append(v.Sources, refLink{Href: s.URL, Text: s.Shows})
		}
		out = append(out, v)
	}
	return out
}

type historyView struct {
	annotate.Head
	Heading string
	Intro   template.HTML
	Run     template.HTML
	RunHref string
	Changes []changeView
}

// upstream links "#n" to a kubernetes/kubernetes pull request or issue.
func upstream(refs []string, kind string) []refLink {
	var out []refLink
	for _, r := range refs {
		n := strings.TrimPrefix(r, "#")
		out = append(out, refLink{Href: "https://github.com/kubernetes/kubernetes/" + kind + "/" + n, Text: r})
	}
	return out
}

// priced is the table of changes' "better" for a change whose figure is
// better without it: what the change buys at that price is its entry's
// "its price".
const priced = "without it: a price (see its entry)"

// betterSide is a run's "better" cell as the table of changes shows it:
// the side alone. The run's page follows "without it" with what the
// change buys at that price, the catalogue's Cost, which the change's
// entry gives in full; in the table, one column of seven, the sentence
// pushed the page past a phone's edge.
func betterSide(cell string) string {
	side, why, ok := strings.Cut(cell, ":")
	if !ok || strings.TrimSpace(why) == "" {
		return cell
	}
	if strings.TrimSpace(side) == "without it" {
		return priced
	}
	return strings.TrimSpace(side)
}

// WriteHistory writes the history page; markdown are the Markdown pages
// of the site, by path, so that the page links the history run's report
// when it is one of them.
func WriteHistory(w *annotate.Writer, markdown []string) error {
	run := LoadHistoryRun(w.Tree().Root)
	v := historyView{
		Head:    annotate.Head{Title: "History · kube-rewind", BodyClass: "history-page"},
		Heading: HistoryTitle,
		Intro: annotate.Inline(fmt.Sprintf("The %d changes between the v0.4 manager of October 2014 and today's (`-tags modern`), in the "+
			"order they landed, as catalogued in `pkg/history`, the project's one record of them; each date links the "+
			"merge commit upstream, or says what the linked pages show where none gives the day. Every ", len(history.Changes)) +
			"history citation on these pages, as \"(history: burst-cap)\", links to its entry here. Each change can be switched off in the " +
			"modern build (`controller-manager -without=name`), and `make history` measures its scenario with and " +
			"without it, on fresh clusters."),
	}
	if run != nil {
		v.Run = annotate.Inline(fmt.Sprintf("Figures: the history run of %s, read from `%s`; a later `make history` "+
			"replaces them with its own (`_output/history/latest`). Medians over the runs, lowest–highest in brackets.",
			run.Started, run.Source))
		for _, p := range markdown {
			if p == run.Source {
				v.RunHref = annotate.PageName(p)
			}
		}
	} else {
		v.Run = annotate.Inline("No history run was found (`make history` writes `_output/history/latest`; the published run " +
			"is `examples/history/RESULTS.md`), so no entry shows a figure.")
	}
	for i, c := range history.Changes {
		cv := changeView{
			ID: c.Name, N: i + 1, Title: c.Title, Date: c.Date, DateSource: c.DateSource().URL, Merged: mergeViews(c),
			PRs: upstream(c.PRs, "pull"), Issues: upstream(c.Issues, "issues"),
			What: annotate.Inline(c.What), Scenario: c.Scenario, Figure: c.Figure,
			With: annotate.Inline(c.With), Without: annotate.Inline(c.Without), Unshown: annotate.Inline(c.Unshown), Cost: annotate.Inline(c.Cost),
			Switch: annotate.Inline(c.Switch), NoSwitch: annotate.Inline(c.NoSwitch),
		}
		if c.Scenario != "" {
			// Every figure of the catalogue counts a cost: lower is better.
			cv.Better = "with it"
			if !c.WithoutMore {
				cv.Better = priced
			}
		}
		if run != nil {
			if m, ok := run.Changes[c.Name]; ok {
				cv.Measured = &m
				if m.Better != "" {
					cv.Better = betterSide(m.Better)
				}
			}
			if note := run.Notes[c.Name]; note != "" {
				cv.RunNote = annotate.Inline(note)
			}
		}
		for _, p := range c.Code {
			cv.Code = append(cv.Code, placeLink(w.Tree(), p))
		}
		v.Changes = append(v.Changes, cv)
	}
	return w.Execute(templates, annotate.HistoryPage, "history", v)
}

// placeLink links a catalogue Place to its line on the file's page, or
// names it when the file has no page.
func placeLink(t *annotate.Tree, p history.Place) annotate.Link {
	l := annotate.Link{Text: p.Decl, Note: p.File}
	f := t.File(p.File)
	if f == nil {
		return l
	}
	l.Href = annotate.PageName(p.File)
	if line := f.DeclLine(p.Decl); line > 0 {
		l.Href += fmt.Sprintf("#L%d", line)
	}
	l.Note = path.Base(p.File)
	return l
}

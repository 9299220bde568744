package annotate

// Writing the walk: each stop's prose, and its excerpts with the lines
// that matter highlighted, in one column or in the two designs' columns.

import (
	"fmt"
	"html/template"
	"math"
	"regexp"
	"strings"
)

type stopView struct {
	ID, Part, Title, Process     string
	N                            int
	Explain                      template.HTML
	LegacyExplain, ModernExplain template.HTML
	Both, Legacy, Modern         []excerptView
}

type walkView struct {
	page
	Heading         string
	Intro, Comments template.HTML
	Length          string
	Stops           []stopView
}

// Reading pace, for the length the walk states: prose at readingWords
// words a minute, the code shown at readingLines lines a minute (the
// highlighted lines read closely, the lines around them glanced at).
const (
	readingWords = 200
	readingLines = 15
)

// walkLength is what the walk shows, counted as the page is built.
type walkLength struct {
	Stops, Excerpts, Files, Lines, Marked, Words int
}

// Minutes is the reading time at the stated pace, rounded up.
func (l walkLength) Minutes() int {
	return int(math.Ceil(float64(l.Words)/readingWords + float64(l.Lines)/readingLines))
}

// String states the length and how the reading time was reckoned.
func (l walkLength) String() string {
	return fmt.Sprintf("%d stops, %d excerpts from %d files: %d lines of code (%d of them highlighted) and %d words. "+
		"About %d minutes to read, at %d words and %d lines of code a minute.",
		l.Stops, l.Excerpts, l.Files, l.Lines, l.Marked, l.Words, l.Minutes(), readingWords, readingLines)
}

// measureWalk counts the walk's stops, the lines its excerpts show and
// the words of its prose (a stop reference counts as its two words).
func (w *writer) measureWalk() walkLength {
	l := walkLength{Stops: len(Walk)}
	l.Words = len(strings.Fields(strings.ReplaceAll(WalkIntro, "`", "")))
	files := map[string]bool{}
	for _, s := range Walk {
		for _, t := range []string{s.Title, s.Explain, s.LegacyExplain, s.ModernExplain} {
			l.Words += len(strings.Fields(stopRef.ReplaceAllString(strings.ReplaceAll(t, "`", ""), "stop N")))
		}
		for _, side := range []struct {
			refs []Ref
			b    Variant
		}{{s.Both, Legacy}, {s.Legacy, Legacy}, {s.Modern, Modern}} {
			for _, ref := range side.refs {
				ex := excerpt(ref, w.indexFor(ref.Dir, side.b), "")
				if ex.File == nil {
					continue
				}
				l.Excerpts++
				files[ex.File.Path] = true
				l.Lines += lineCount(ex.Ranges)
				l.Marked += len(ex.Marked)
			}
		}
	}
	l.Files = len(files)
	return l
}

// stopRef is the markup for a link to another stop.
var stopRef = regexp.MustCompile(`\{stop:([a-z0-9-]+)\}`)

// walkProse renders text as Inline does and turns {stop:<id>} into a link
// to that stop; an unknown id is an error, so a renamed stop cannot leave
// a dead reference behind.
func walkProse(text string, numbers map[string]int) (template.HTML, error) {
	var err error
	out := stopRef.ReplaceAllStringFunc(string(Inline(text)), func(m string) string {
		id := stopRef.FindStringSubmatch(m)[1]
		n, ok := numbers[id]
		if !ok {
			err = fmt.Errorf("%s: %q names no stop", WalkPage, m)
			return m
		}
		return fmt.Sprintf(`<a href="#%s">stop %d</a>`, id, n)
	})
	return template.HTML(out), err
}

func (w *writer) walk() error {
	v := walkView{
		page:     page{Title: WalkTitle + " · kube-rewind", BodyClass: "walk-page"},
		Heading:  WalkTitle,
		Intro:    Inline(WalkIntro),
		Comments: Inline(ExcerptComments),
		Length:   w.measureWalk().String(),
	}
	numbers := map[string]int{}
	for i, s := range Walk {
		numbers[s.ID] = i + 1
	}
	excerpts := func(refs []Ref, b Variant, label string) ([]excerptView, error) {
		var out []excerptView
		for _, ref := range refs {
			ev, err := w.excerptView(excerpt(ref, w.indexFor(ref.Dir, b), label))
			if err != nil {
				return nil, err
			}
			out = append(out, ev)
		}
		return out, nil
	}
	for i, s := range Walk {
		sv := stopView{ID: s.ID, Part: s.Part, Title: s.Title, Process: s.Process, N: i + 1}
		var err error
		prose := func(text string) template.HTML {
			if err != nil || strings.TrimSpace(text) == "" {
				return ""
			}
			var h template.HTML
			h, err = walkProse(text, numbers)
			return h
		}
		sv.Explain = prose(s.Explain)
		sv.LegacyExplain = prose(s.LegacyExplain)
		sv.ModernExplain = prose(s.ModernExplain)
		if err != nil {
			return err
		}
		// Shared code is read from the default build, which compiles it.
		if sv.Both, err = excerpts(s.Both, Legacy, "both builds"); err != nil {
			return err
		}
		if sv.Legacy, err = excerpts(s.Legacy, Legacy, "2014 build"); err != nil {
			return err
		}
		if sv.Modern, err = excerpts(s.Modern, Modern, "modern build"); err != nil {
			return err
		}
		v.Stops = append(v.Stops, sv)
	}
	return w.execute(WalkPage, "walk", v)
}

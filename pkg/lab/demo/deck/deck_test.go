package deck

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
)

// talkDir holds the recordings that ship for speakers without a cluster,
// and the deck made of them.
const talkDir = "../../../../examples/talk"

// The shipped deck and the outline rcbench deck makes it of, from the top
// of the repository: rcbench deck -o examples/talk/20-minutes.html
// examples/talk/20-minutes.md.
const (
	shippedDeck    = "20-minutes.html"
	shippedOutline = "20-minutes.md"
	// repoRoot is the top of the repository, where the deck's code card is
	// cut from.
	repoRoot = "../../../.."
)

// autoCard is how long a deck played with ?auto=1 shows a card, in
// milliseconds (page.js's AUTO_CARD).
const autoCard = 2000

// shippedDeckOf builds the shipped deck anew, from its outline and the
// shipped recordings it names, which it returns too.
func shippedDeckOf(t *testing.T) (*Deck, []*demo.Recording) {
	t.Helper()
	o, err := ReadOutline(filepath.Join(talkDir, shippedOutline))
	if err != nil {
		t.Fatal(err)
	}
	d, err := o.Deck(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	return d, d.Recordings
}

func TestTheShippedDeckIsWhatRcbenchDeckMakesOfItsOutline(t *testing.T) {
	d, _ := shippedDeckOf(t)
	want, err := d.HTML()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(talkDir, shippedDeck)
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not what rcbench deck makes now of %s (a new page, a change of pkg/history's catalogue, which its timeline cites, "+
			"or of the code its code card cuts): rcbench deck -o %s %s, from the top of the repository, renews it", file, shippedOutline, file, filepath.Join(talkDir, shippedOutline))
	}
	for _, bad := range []string{"http://", "https://", "src=", "href="} {
		if bytes.Contains(got, []byte(bad)) {
			t.Errorf("the deck refers to something outside itself (%q)", bad)
		}
	}
	var kinds []string
	for _, s := range d.Slides {
		kinds = append(kinds, s.Kind)
		if len(s.Notes) == 0 {
			t.Errorf("slide %q has no notes", s.Title)
		}
	}
	if want := "[title timeline next talk next talk code next talk next talk next talk next talk end text waterfall]"; fmt.Sprint(kinds) != want {
		t.Errorf("slides %v, want %s", kinds, want)
	}
	// The card before idle places it on the timeline: the informers.
	var hot []string
	for _, c := range d.Slides[2].Changes {
		if c.Hot {
			hot = append(hot, c.Name)
		}
	}
	if fmt.Sprint(hot) != "[endpoints-informer pod-informer]" {
		t.Errorf("the timeline before idle highlights %v", hot)
	}
	if d.Minutes != 20 || d.Slides[0].Lines[0] == "" {
		t.Errorf("the outline's length and title card: %d minutes, lines %q", d.Minutes, d.Slides[0].Lines)
	}
}

// Package deck makes a whole talk of talk mode's recordings (rcbench
// deck): an Outline, a talk's Markdown outline, becomes a Deck, several
// recordings of pkg/lab/demo in one page, with title, text, code and
// timeline cards, the speaker's notes and a presenter view in a second
// window, which prints one page per slide and whose pictures
// demo.WriteStills exports. It imports pkg/lab/demo for its recordings and
// its page (demo.DeckPage), and pkg/lab/source to cut its code cards
// from the source by declaration name, as the annotated source cuts its
// excerpts; demo never imports it, and it imports nothing of annotate.
//
// Ours: not part of 2014.
package deck

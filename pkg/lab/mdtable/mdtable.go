package mdtable

import (
	"io"
	"strings"
)

// Align is a column's cell in the delimiter row under the header, which
// says how GitHub Flavored Markdown aligns the column: Left, Right, or any
// other run of dashes with a colon at either end.
type Align string

// The alignments the pages use.
const (
	Left  Align = "---"
	Right Align = "---:"
)

// Table is a header, how each column aligns, and the rows under it.
type Table struct {
	Header []string
	// Align holds the columns' alignments in order; a column past its end
	// aligns Left.
	Align []Align
	Rows  [][]string
}

// Write writes t as a Markdown table followed by a blank line, with every |
// in a header or a cell escaped so that it does not end the cell.
func Write(w io.Writer, t Table) error {
	var b strings.Builder
	rule := make([]string, len(t.Header))
	for i := range t.Header {
		rule[i] = string(Left)
		if i < len(t.Align) {
			rule[i] = string(t.Align[i])
		}
	}
	writeRow(&b, t.Header)
	b.WriteString("|" + strings.Join(rule, "|") + "|\n")
	for _, row := range t.Rows {
		writeRow(&b, row)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeRow writes one row of cells, escaped, between pipes.
func writeRow(b *strings.Builder, cells []string) {
	escaped := make([]string, len(cells))
	for i, c := range cells {
		escaped[i] = strings.ReplaceAll(c, "|", `\|`)
	}
	b.WriteString("| " + strings.Join(escaped, " | ") + " |\n")
}

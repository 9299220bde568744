package published

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A Reference is a figure of a published page, cited in prose. In
// Markdown it is written
//
//	<!-- cite PAGE | ROW | COLUMN [| OPTIONS] -->VALUE<!-- /cite -->
//	<!-- cite PAGE | after TEXT [| OPTIONS] -->VALUE<!-- /cite -->
//
// and a code host shows VALUE alone. The first form reads the cell of
// the page's table whose row starts with ROW, in the column headed
// COLUMN: for a headline figure, ROW is "scenario, size: figure (unit)"
// and COLUMN the variant. ROW may add conditions on other columns,
// "raw etcd creates & clients=64", where its first cell alone names
// more than one row, and ROW * matches any first cell, where the first
// cell changes from run to run (a commit); PAGE > HEADING reads only the tables under that
// heading, where the headline figures' row (the default) is not the one
// meant. The second form reads the first figure after TEXT,
// which must occur once on the page, on the same line. Inside a table's
// cell, the bars are written \| as the cell's own must be. OPTIONS, spaced:
// #N reads the Nth figure instead of the first, unit=U writes U after a
// figure the page wrote without one, bare writes no unit, words reads
// the whole cell (a verdict: "kept up", "yes: …"). rcbench publish
// writes VALUE from the page (Render), and rcbench publish -check fails
// where VALUE is not what the page says.
type Reference struct {
	Page string
	// Heading, when given, picks the tables under it (PAGE > HEADING).
	Heading string
	// Row and Column locate a cell; After locates text instead.
	Row    string
	Where  map[string]string
	Column string
	After  string
	// Nth is which figure of the cell or line, from 1.
	Nth   int
	Unit  string
	Bare  bool
	Words bool
	// Key is the reference as written between "cite" and "-->".
	Key string
}

// ParseReference reads the key of a reference, what stands between
// "<!-- cite" and "-->".
func ParseReference(key string) (Reference, error) {
	key = strings.TrimSpace(key)
	r := Reference{Key: key, Nth: 1}
	// Inside a Markdown table a reference escapes its bars, as a cell
	// must.
	key = strings.ReplaceAll(key, `\|`, "|")
	parts := strings.Split(key, " | ")
	if len(parts) < 2 {
		return r, fmt.Errorf("reference %q: want PAGE | ROW | COLUMN or PAGE | after TEXT", key)
	}
	r.Page, r.Heading, _ = strings.Cut(parts[0], " > ")
	r.Page, r.Heading = strings.TrimSpace(r.Page), strings.TrimSpace(r.Heading)
	rest := parts[1:]
	if after, ok := strings.CutPrefix(strings.TrimSpace(rest[0]), "after "); ok {
		r.After = after
		rest = rest[1:]
	} else {
		if len(rest) < 2 {
			return r, fmt.Errorf("reference %q: a row needs a column: PAGE | ROW | COLUMN", key)
		}
		conds := strings.Split(rest[0], " & ")
		r.Row = strings.TrimSpace(conds[0])
		for _, c := range conds[1:] {
			col, val, ok := strings.Cut(c, "=")
			if !ok {
				return r, fmt.Errorf("reference %q: condition %q is not COLUMN=VALUE", key, c)
			}
			if r.Where == nil {
				r.Where = map[string]string{}
			}
			r.Where[strings.TrimSpace(col)] = strings.TrimSpace(val)
		}
		r.Column = strings.TrimSpace(rest[1])
		rest = rest[2:]
	}
	if len(rest) > 1 {
		return r, fmt.Errorf("reference %q: too many parts", key)
	}
	if len(rest) == 1 {
		for _, opt := range strings.Fields(rest[0]) {
			switch {
			case strings.HasPrefix(opt, "#"):
				n, err := strconv.Atoi(opt[1:])
				if err != nil || n < 1 {
					return r, fmt.Errorf("reference %q: option %q is not #N, N from 1", key, opt)
				}
				r.Nth = n
			case strings.HasPrefix(opt, "unit="):
				r.Unit = strings.ReplaceAll(strings.TrimPrefix(opt, "unit="), "_", " ")
			case opt == "bare":
				r.Bare = true
			case opt == "words":
				r.Words = true
			default:
				return r, fmt.Errorf("reference %q: unknown option %q (know #N, unit=U, bare, words)", key, opt)
			}
		}
	}
	if r.Page == "" || r.Row == "" && r.After == "" {
		return r, fmt.Errorf("reference %q: no page or no row", key)
	}
	return r, nil
}

// Render returns what the prose shows for r, read from s: the figure
// with its unit, and the marks the page puts on it.
func (r Reference) Render(s *Sheet) (string, error) {
	if r.After != "" {
		return r.renderAfter(s)
	}
	t, row, col, err := r.cell(s)
	if err != nil {
		return "", err
	}
	cell := row[col]
	var value string
	if r.Words {
		value = strings.ReplaceAll(cell, "**", "")
	} else {
		figs := figures(cell)
		if len(figs) < r.Nth {
			return "", fmt.Errorf("%s: the cell %q (row %q, column %q) holds %d figure(s), not a #%d", s.File, cell, r.Row, r.Column, len(figs), r.Nth)
		}
		unit := unitOfRow(r.Row)
		if isRatio(r.Column) {
			unit = ""
		}
		value = r.withUnit(Group(figs[r.Nth-1]), unit)
	}
	if marks := s.marks(t, row, r.Column); len(marks) > 0 {
		value += " (" + strings.Join(marks, "; ") + ")"
	}
	return value, nil
}

func (r Reference) renderAfter(s *Sheet) (string, error) {
	var found []string
	for _, line := range s.Lines {
		if i := strings.Index(line, r.After); i >= 0 {
			found = append(found, line[i+len(r.After):])
			if strings.Contains(line[i+len(r.After):], r.After) {
				found = append(found, "")
			}
		}
	}
	switch {
	case len(found) == 0:
		return "", fmt.Errorf("%s: no text %q", s.File, r.After)
	case len(found) > 1:
		return "", fmt.Errorf("%s: the text %q occurs %d times: cite a longer one", s.File, r.After, len(found))
	}
	if r.Words {
		return "", fmt.Errorf("reference %q: words reads a cell, not text", r.Key)
	}
	figs := figures(found[0])
	if len(figs) < r.Nth {
		return "", fmt.Errorf("%s: %d figure(s) follow %q on its line, not a #%d", s.File, len(figs), r.After, r.Nth)
	}
	return r.withUnit(Group(figs[r.Nth-1]), ""), nil
}

func (r Reference) withUnit(fig, rowUnit string) string {
	if r.Bare || hasUnit(fig) {
		return fig
	}
	if r.Unit != "" {
		return fig + " " + r.Unit
	}
	if rowUnit != "" {
		return fig + " " + rowUnit
	}
	return fig
}

func hasUnit(fig string) bool {
	last := fig[len(fig)-1]
	return last < '0' || last > '9'
}

// cell finds the one cell r names.
func (r Reference) cell(s *Sheet) (Table, []string, int, error) {
	type hit struct {
		t   Table
		row []string
		col int
	}
	var hits []hit
	for _, t := range s.Tables {
		col := t.column(r.Column)
		if col < 0 || r.Heading != "" && t.Heading != r.Heading {
			continue
		}
	rows:
		for _, row := range t.Rows {
			if len(row) <= col || row[0] != r.Row && r.Row != "*" {
				continue
			}
			for c, want := range r.Where {
				i := t.column(c)
				if i < 0 || i >= len(row) || row[i] != want {
					continue rows
				}
			}
			hits = append(hits, hit{t, row, col})
		}
	}
	if len(hits) > 1 && r.Heading == "" {
		// The headline figures first: the tables that compare two
		// variants repeat their rows.
		var headline []hit
		for _, h := range hits {
			if h.t.Heading == headlineHeading {
				headline = append(headline, h)
			}
		}
		if len(headline) == 1 {
			hits = headline
		}
	}
	switch len(hits) {
	case 0:
		return Table{}, nil, 0, fmt.Errorf("%s: no cell in row %q, column %q", s.File, r.Row, r.Column)
	case 1:
		return hits[0].t, hits[0].row, hits[0].col, nil
	}
	return Table{}, nil, 0, fmt.Errorf("%s: %d cells in row %q, column %q: add a condition (ROW & COLUMN=VALUE)", s.File, len(hits), r.Row, r.Column)
}

// isRatio says a column holds a ratio, which has no unit of its row.
func isRatio(column string) bool {
	return strings.Contains(column, "÷") || strings.Contains(column, "ratio") || strings.Contains(column, "×")
}

// headlineHeading is the section of a results page that a row of
// several tables is read from by default.
const headlineHeading = "Headline figures"

// unitOfRow is the unit a headline row names last, "(s)" in "scale-up
// N=1000: time to all running (s)".
func unitOfRow(row string) string {
	if !strings.HasSuffix(row, ")") {
		return ""
	}
	i := strings.LastIndex(row, "(")
	if i < 0 {
		return ""
	}
	return row[i+1 : len(row)-1]
}

// Group writes a figure's whole part in groups of three digits, as the
// prose does: 99257 is 99 257.
func Group(fig string) string {
	if strings.Contains(fig, " min ") || strings.Contains(fig, " h ") {
		return fig
	}
	fig = groupSpace.ReplaceAllString(fig, "$1$2")
	start := 0
	for start < len(fig) && (fig[start] < '0' || fig[start] > '9') {
		start++
	}
	end := start
	for end < len(fig) && fig[end] >= '0' && fig[end] <= '9' {
		end++
	}
	digits := fig[start:end]
	if len(digits) < 4 {
		return fig
	}
	var b strings.Builder
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(d)
	}
	return fig[:start] + b.String() + fig[end:]
}

// marks are what the page says of the cell beside its figure: a
// difference it could not explain, a run of it that failed or was left
// out, a laboratory that did not keep up. The prose carries them with
// the figure.
func (s *Sheet) marks(t Table, row []string, column string) []string {
	var out []string
	if s.unexplained(t, row, column) {
		out = append(out, "NOT EXPLAINED on its page")
	}
	cell := row[t.column(column)]
	if strings.Contains(cell, "⚠") && s.spreadUnexplained() {
		out = append(out, "its spread NOT EXPLAINED on its page")
	}
	point, _, ok := strings.Cut(row[0], ": ")
	if !ok {
		return out
	}
	if n := s.leftOut(point, column); n > 0 {
		out = append(out, fmt.Sprintf("%d run(s) of it failed or left out", n))
	}
	if n := s.notKeptUp(point, column); n > 0 {
		out = append(out, fmt.Sprintf("the laboratory did not keep up in %d of its runs", n))
	}
	return out
}

// namesWord says text names word as a whole (a variant's name is no
// part of a longer one: modern is not in modern-unthrottled).
func namesWord(text, word string) bool {
	re := regexp.MustCompile(`(^|[^\pL\pN_-])` + regexp.QuoteMeta(word) + `($|[^\pL\pN_-])`)
	return re.MatchString(text)
}

// unexplained says the page calls the cited row's figure in column NOT
// EXPLAINED: in the row itself, or in another table's row of the same
// first cell (the originals' check of a headline figure) that names the
// column.
func (s *Sheet) unexplained(in Table, cited []string, column string) bool {
	first := cited[0]
	for _, t := range s.Tables {
		for _, row := range t.Rows {
			if row[0] != first {
				continue
			}
			// In the cited row's own table another row with the same
			// first cell (the fair fight's ablations, all at one size)
			// says nothing of the cited one.
			if t.Line == in.Line && !slices.Equal(row, cited) {
				continue
			}
			text := strings.Join(row, " | ")
			if strings.Contains(text, "NOT EXPLAINED") && (t.column(column) >= 0 || namesWord(t.Heading, column) || namesWord(text, column)) {
				return true
			}
		}
	}
	return false
}

func (s *Sheet) spreadUnexplained() bool {
	for _, t := range s.Tables {
		for _, row := range t.Rows {
			if row[0] == "spread over runs" && strings.Contains(strings.Join(row, " "), "NOT EXPLAINED") {
				return true
			}
		}
	}
	return false
}

// leftOut counts the page's list items that leave out or fail a run of
// the point (scale-up N=1000) and variant.
func (s *Sheet) leftOut(point, variant string) int {
	n := 0
	scenario, size, _ := strings.Cut(point, " ")
	size = strings.TrimPrefix(strings.TrimPrefix(size, "N="), "M=")
	for _, line := range s.Lines {
		if !strings.HasPrefix(line, "- ") || !namesWord(line, variant) {
			continue
		}
		if !strings.Contains(line, "not run") && !strings.Contains(line, "failed") {
			continue
		}
		if strings.HasPrefix(line, "- "+point+", "+variant+":") || strings.HasPrefix(line, "- "+point+" "+variant+" #") ||
			strings.Contains(line, scenario+" with "+size+" pods") {
			n++
		}
	}
	return n
}

// notKeptUp counts the runs of the point and variant whose row in the
// laboratory's share says other than "kept up".
func (s *Sheet) notKeptUp(point, variant string) int {
	n := 0
	for _, t := range s.Tables {
		if !strings.HasPrefix(t.Heading, "The laboratory's share") {
			continue
		}
		for _, row := range t.Rows {
			if !strings.HasPrefix(row[0], point+" "+variant+" #") {
				continue
			}
			if last := row[len(row)-1]; !strings.HasPrefix(last, "kept up") {
				n++
			}
		}
	}
	return n
}

// groupSpace is a space between groups of digits, no-break or not.
var groupSpace = regexp.MustCompile(`(\d)[ \x{a0}\x{202f}](\d{3})`)

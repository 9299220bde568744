package report

import (
	"bufio"
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/charts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// Write writes every output file of a benchmark into dir; cpu names
// the machine's processor for the benchstat text.
func Write(dir string, sum *results.Summary, runs []results.RunRecord, cpu string, png bool) error {
	if err := writeFile(filepath.Join(dir, "results.json"), func(w *bufio.Writer) error { return sum.WriteJSON(w) }); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, "bench.txt"), func(w *bufio.Writer) error { return writeBenchstat(w, runs, "", cpu) }); err != nil {
		return err
	}
	for _, v := range sum.Options.Variants {
		if err := writeFile(filepath.Join(dir, "bench."+v+".txt"), func(w *bufio.Writer) error { return writeBenchstat(w, runs, v, cpu) }); err != nil {
			return err
		}
	}
	cal, sets := charts.Build(sum, runs, png)
	all := []charts.Chart{}
	if cal != nil {
		all = append(all, *cal)
	}
	for _, set := range sets {
		all = append(all, set.Charts...)
	}
	if err := writeCharts(dir, all...); err != nil {
		return err
	}
	doc := buildDocument(sum, cal, sets)
	// Charts a section draws for itself (the fair fight's waterfalls).
	if err := writeCharts(dir, doc.figures()...); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, "report.md"), func(w *bufio.Writer) error { return writeMarkdown(w, doc) }); err != nil {
		return err
	}
	page := buildResults(sum, headlineChart(sum, sets), sweepChartOf(sets))
	if err := writeCharts(dir, page.figures()...); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, ResultsFile), func(w *bufio.Writer) error { return writeMarkdown(w, page) }); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, "report.html"), func(w *bufio.Writer) error { return writeHTML(w, doc) })
}

// writeCharts writes each chart into dir/charts, as SVG and, where it
// was drawn, PNG.
func writeCharts(dir string, cs ...charts.Chart) error {
	chartDir := filepath.Join(dir, "charts")
	if err := os.MkdirAll(chartDir, 0o755); err != nil {
		return err
	}
	for _, c := range cs {
		if err := os.WriteFile(filepath.Join(chartDir, c.Name+".svg"), c.SVG, 0o644); err != nil {
			return err
		}
		if len(c.PNG) > 0 {
			if err := os.WriteFile(filepath.Join(chartDir, c.Name+".png"), c.PNG, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeFile(path string, fill func(w *bufio.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := fill(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// WriteSamples writes a run's samples as CSV (series, seconds, value),
// then its marks as rows of the series mark.<name> with value 1.
func WriteSamples(path string, o *scenario.Outcome) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return writeFile(path, func(w *bufio.Writer) error {
		if err := o.Rec.WriteCSV(w); err != nil {
			return err
		}
		names := make([]string, 0, len(o.Marks))
		for n := range o.Marks {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool { return o.Marks[names[i]] < o.Marks[names[j]] })
		cw := csv.NewWriter(w)
		for _, n := range names {
			cw.Write([]string{"mark." + n, strconv.FormatFloat(o.Marks[n], 'f', 3, 64), "1"})
		}
		cw.Flush()
		return cw.Error()
	})
}

// PublishPage copies the page named name of the report in dir, and the
// charts it draws, into to (charts under to/charts, so that its links
// hold there too), where the page is called ResultsFile. Nothing else of
// the report is copied.
func PublishPage(dir, name, to string) error {
	page, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(to, "charts"), 0o755); err != nil {
		return err
	}
	for _, m := range chartLink.FindAllStringSubmatch(string(page), -1) {
		data, err := os.ReadFile(filepath.Join(dir, "charts", m[1]))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, "charts", m[1]), data, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(to, ResultsFile), page, 0o644)
}

// chartLink finds the charts a Markdown page draws.
var chartLink = regexp.MustCompile(`\]\(charts/([^)/]+\.svg)\)`)

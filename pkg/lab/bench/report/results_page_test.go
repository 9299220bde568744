package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/findings"
)

func TestEveryNoOnTheResultsPageSaysWhyNot(t *testing.T) {
	sum := failingSummary()
	sum.Options.Variants = []string{"legacy", "modern", "modern-unthrottled"}
	sum.Findings = findings.Findings(sum)
	var md bytes.Buffer
	if err := writeMarkdown(&md, buildResults(sum, nil, nil)); err != nil {
		t.Fatal(err)
	}
	nos := 0
	for _, line := range strings.Split(md.String(), "\n") {
		if !strings.Contains(line, "**NO**") {
			continue
		}
		nos++
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 3 || len(cells[2]) < 20 {
			t.Errorf("a NO without its why not: %s", line)
		}
	}
	if nos < 5 {
		t.Errorf("%d NO rows, want the five findings that fail:\n%s", nos, md.String())
	}
	if !strings.Contains(md.String(), "| idle M=10,k=10: of which leader election (lease renewals) | cluster | – | 2 (all runs) | – |") {
		t.Errorf("the idle split by purpose is missing:\n%s", md.String())
	}
}

package demo

import (
	"fmt"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/history"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// design is one column of a demo: the variant it runs and its labels.
type design struct {
	Variant scenario.Variant
	// Label names it in the narration and the results: 2014, today.
	Label string
	// Heading and Sub head its column on the page.
	Heading, Sub string
	// Expect names the variant whose expectation (Scenario.Expect) it is
	// checked against; empty means none applies.
	Expect string
}

// designs2014 are the two columns of an ordinary demo: the 2014 manager
// on the left, today's on the right.
var designs2014 = [2]design{
	{Variant: scenario.Legacy, Label: "2014", Heading: "2014", Sub: "v0.4: a watch, a LIST every 10 s, a goroutine per pod", Expect: scenario.Legacy.Name},
	{Variant: scenario.Modern, Label: "today", Heading: "Today", Sub: "informers, workqueue, expectations, slow start", Expect: scenario.Modern.Name},
}

// designsFor returns the columns of a demo. Without names changes of
// pkg/history: the left column is then today's manager with those changes
// switched off instead of the 2014 one, so the audience sees what they
// bought.
func designsFor(without []string) ([2]design, error) {
	if len(without) == 0 {
		return designs2014, nil
	}
	off, err := history.ParseWithout(strings.Join(without, ","))
	if err != nil {
		return designs2014, err
	}
	list := history.FormatWithout(off)
	var titles []string
	for _, n := range strings.Split(list, ",") {
		c, _ := history.Get(n)
		titles = append(titles, fmt.Sprintf("%s (%s, %s)", c.Title, strings.Join(c.Refs(), " "), c.Date))
	}
	left := design{
		Variant: scenario.Variant{Name: "without", Design: "modern", ManagerArgs: []string{"-without=" + list}},
		Label:   "without " + list,
		Heading: "Today without " + list,
		Sub:     "switched off: " + strings.Join(titles, "; "),
	}
	return [2]design{left, designs2014[1]}, nil
}

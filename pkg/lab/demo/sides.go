package demo

import (
	"fmt"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/history"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// designsFor returns the columns of a demo. Without names changes of
// pkg/history: the left column is then today's manager with those changes
// switched off instead of the 2014 one, so the audience sees what they
// bought.
func designsFor(without []string) ([]Design, error) {
	if len(without) == 0 {
		return designs, nil
	}
	off, err := history.ParseWithout(strings.Join(without, ","))
	if err != nil {
		return nil, err
	}
	list := history.FormatWithout(off)
	var titles []string
	for _, n := range strings.Split(list, ",") {
		c, _ := history.Get(n)
		titles = append(titles, fmt.Sprintf("%s (%s, %s)", c.Title, strings.Join(c.Refs(), " "), c.Date))
	}
	left := Design{
		Variant: scenario.Variant{Name: "without", Design: "modern", ManagerArgs: []string{"-without=" + list}},
		Short:   "without " + list,
		Heading: "Today without " + list,
		Sub:     "switched off: " + strings.Join(titles, "; "),
	}
	return []Design{left, designs[1]}, nil
}

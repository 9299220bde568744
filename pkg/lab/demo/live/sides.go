package live

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/history"
	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/today"
)

// sideOf returns the column of the variant named name, checked against
// what its design must show (an original is held to its port's).
func sideOf(name string) (demo.Design, error) {
	for _, d := range demo.Designs {
		if d.Variant.Name == name {
			return d, nil
		}
	}
	var known []string
	for _, v := range scenario.Variants {
		known = append(known, v.Name)
		if v.Name != name {
			continue
		}
		// Checked against what v must show: an original what its port's
		// design must, kube-controller-manager what a scenario expects of
		// today's stack (Scenario.Expect).
		d := demo.DesignOf(v)
		d.Checked = true
		return d, nil
	}
	return demo.Design{}, fmt.Errorf("no variant named %q for a side (known: %s)", name, strings.Join(known, ", "))
}

// designsFor returns the columns of a demo: the variants named left and
// right (empty: 2014 on the left, today on the right). Without names
// changes of pkg/history: the left column is then today's manager with
// those changes switched off, so the audience sees what they bought.
func designsFor(without []string, left, right string) ([]demo.Design, error) {
	out := append([]demo.Design(nil), demo.Designs...)
	for i, name := range []string{left, right} {
		if name == "" {
			continue
		}
		d, err := sideOf(name)
		if err != nil {
			return nil, err
		}
		out[i] = d
	}
	if len(without) == 0 {
		return out, nil
	}
	if left != "" {
		return nil, fmt.Errorf("-without chooses the left side; it cannot be combined with -left=%s", left)
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
	out[0] = demo.Design{
		Variant: scenario.Variant{Name: "without", Design: "modern", ManagerArgs: []string{"-without=" + list}},
		Short:   "without " + list,
		Heading: "Today without " + list,
		Sub:     "switched off: " + strings.Join(titles, "; "),
	}
	return out, nil
}

// haveBinaries says which side's controller-manager binary is missing
// from dir, and how to build it.
func haveBinaries(dir, kubeconfig string, ds []demo.Design) error {
	for _, d := range ds {
		bin := d.Variant.Binary()
		if d.Variant.Runs(scenario.ExternalCluster) {
			if kubeconfig == "" {
				return fmt.Errorf("%s plays on the cluster a kubeconfig names: give one with -kubeconfig=FILE", d.Variant.Name)
			}
			continue
		}
		if d.Variant.OnToday() {
			if missing := today.Missing(today.DirBeside(dir)); missing != "" {
				return fmt.Errorf("%s plays on today's control plane: %s", d.Short, missing)
			}
			if !d.Variant.Ours() {
				continue
			}
		}
		if d.Variant.Runs(scenario.Originals) {
			if err := original.Available(original.DirBeside(dir)); err != nil {
				return fmt.Errorf("%s plays on the original v0.4 binaries: %v", d.Short, err)
			}
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, bin)); err == nil {
			continue
		}
		build := d.Variant.Build
		if build == "" {
			build = "make build"
		}
		return fmt.Errorf("%s plays %s, and is not in %s: %s builds it", bin, d.Short, dir, build)
	}
	return nil
}

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

// sideNames are the headings of the variants that are not one of the two
// demo.Designs; any other variant plays under its own name.
var sideNames = map[string]demo.Design{
	scenario.Upstream.Name:       {Heading: "Upstream today", Sub: "k8s.io/kubernetes's own replication manager, unmodified, through an adapter", Short: "upstream"},
	scenario.LegacyOriginal.Name: {Heading: "2014, the real one", Sub: "Kubernetes v0.4's own controller-manager (make original) on our apiserver", Short: "v0.4's binary"},
	scenario.StackOriginal.Name:  {Heading: "2014, its own binaries", Sub: "v0.4's own apiserver and controller-manager (make original), hollow nodes as its kubelets", Short: "v0.4's stack"},
	scenario.StackTodayDefaults.Name: {Heading: "Today, the whole real one", Sub: "kube-apiserver, kube-controller-manager and kube-scheduler v1.37 at their defaults, KWOK's nodes (make today)",
		Short: "today's stack"},
	scenario.StackTodayUnthrottled.Name: {Heading: "Today, the whole real one, unthrottled", Sub: "today's control plane (make today), kube-controller-manager's client limit raised out of reach",
		Short: "today's stack, unthrottled"},
	scenario.ModernToday.Name: {Heading: "Our port of today, on today's stack", Sub: "our modern controller-manager against kube-apiserver v1.37 through client-go, KWOK's nodes (make build, make today)",
		Short: "our port on today's stack"},
	scenario.ModernTodayUnthrottled.Name: {Heading: "Our port of today, on today's stack, unthrottled", Sub: "our modern controller-manager on today's control plane, its client limit lifted",
		Short: "our port on today's stack, unthrottled"},
}

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
		d, ok := sideNames[name]
		if !ok {
			d = demo.Design{Heading: name, Short: name}
		}
		d.Variant, d.Expect = v, v.Design
		if v.OnToday() {
			// kube-controller-manager is held to what a scenario expects
			// of today's stack, not of our port (Scenario.Expect).
			d.Expect = v.Name
		}
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
		if d.Variant.Stack == scenario.StackExternal {
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
		if d.Variant.Original != "" {
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

package report

import (
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
)

// etcdFigures are the costs compared between a size run on the
// apiserver's embedded etcd and the same size on three members.
var etcdFigures = []struct{ scenario, figure string }{
	{"scale-up", "time_to_running"},
	{"scale-up", "apiserver_cpu"},
	{"scale-up", "manager_bytes"},
	{"idle", "apiserver_cpu_per_min"},
	{"idle", "requests_per_min"},
	{"idle", "bytes_per_min"},
}

// etcdSection writes the sizes a sweep ran against an external etcd
// cluster beside the same sizes on the embedded member.
func etcdSection(d *document, sum *results.Summary) {
	t := table{header: []string{"scenario", "figure", "process", "variant", "embedded etcd", "external etcd"}, numeric: []bool{false, false, false, false, true, true}}
	members := 0
	for _, ef := range etcdFigures {
		sc, ok := sum.Scenario(ef.scenario)
		if !ok {
			continue
		}
		for _, ext := range sc.Sizes {
			if ext.EtcdMembers == 0 {
				continue
			}
			members = ext.EtcdMembers
			var embedded *results.SizeSummary
			for i := range sc.Sizes {
				if sc.Sizes[i].EtcdMembers == 0 && sc.Sizes[i].Pods() == ext.Pods() {
					embedded = &sc.Sizes[i]
				}
			}
			for _, v := range ext.Variants {
				f, ok := v.Figure(ef.figure)
				if !ok {
					continue
				}
				before := "not run"
				if embedded != nil {
					if ev, ok := embedded.Variant(v.Variant); ok {
						if ef, ok := ev.Figure(ef.figure); ok {
							before = results.FormatValue(ef.Median, ef.Unit)
						}
					}
				}
				t.rows = append(t.rows, []string{fmt.Sprintf("%s %s", ef.scenario, ext.Label), ef.figure, f.Process, v.Variant, before, results.FormatValue(f.Median, f.Unit)})
			}
		}
	}
	if len(t.rows) == 0 {
		return
	}
	d.h(3, "sweep-etcd", "On an external etcd cluster")
	d.p(fmt.Sprintf("The same size run with the apiserver pointed at %d etcd members (etcd 3.4 with the v2 API, on loopback, "+
		"data on the same disk), as users who outgrow one member run it, beside the embedded member. Medians; the external "+
		"members' own CPU is not counted in the apiserver's.", members))
	d.table(t)
}

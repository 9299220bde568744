package live

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

func TestIdleRowsNameTheirProcessAndSayTheManagersRequestsIncludeLeaseRenewals(t *testing.T) {
	idle := []scenario.Result{
		{Name: "requests_per_min", Process: sampler.ProcessManager, Unit: "req/min", Value: 66, LowerIsBetter: true},
		{Name: "apiserver_cpu_per_min", Process: sampler.ProcessAPIServer, Unit: "CPU s/min", Value: 1.5, LowerIsBetter: true},
	}
	rows := demo.CompareAs([2]string{demo.Designs[0].Short, demo.Designs[1].Short}, idle, idle)
	if rows[0].Process != "controller-manager" || rows[1].Process != "apiserver" {
		t.Errorf("rows name %q and %q", rows[0].Process, rows[1].Process)
	}
	if !strings.Contains(rows[0].Note, "lease renewals included") || rows[1].Note != "" {
		t.Errorf("notes %q and %q", rows[0].Note, rows[1].Note)
	}
	var out bytes.Buffer
	c := &console{w: &out}
	c.printResults(demo.Talk{}, rows, nil)
	for _, want := range []string{"requests per min (controller-manager)", "apiserver cpu per min (apiserver)", "lease renewals included"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the console table lacks %q:\n%s", want, out.String())
		}
	}
}

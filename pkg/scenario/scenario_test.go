package scenario

import (
	"context"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/stack/stacktest"
)

// testSizes shrinks each scenario for make test: a 2 s sync period instead
// of 10 s, short windows, few pods. The outcomes asserted are the same.
var testSizes = map[string]Size{
	"scale-up":     {Label: "test", Replicas: 600, Period: 2 * time.Second},
	"scale-down":   {Label: "test", Replicas: 30, Period: 2 * time.Second},
	"idle":         {Label: "test", Controllers: 3, Replicas: 2, Period: 2 * time.Second, Window: 16 * time.Second},
	"churn":        {Label: "test", Replicas: 10, Rate: 1, Period: 2 * time.Second, Window: 6 * time.Second},
	"api-errors":   {Label: "test", Replicas: 10, Period: 2 * time.Second, Window: 12 * time.Second},
	"watch-drop":   {Label: "test", Replicas: 30, Period: 2 * time.Second},
	"two-managers": {Label: "test", Replicas: 10, Period: 2 * time.Second, Window: 10 * time.Second},
	"restart":      {Label: "test", Replicas: 100, Period: 2 * time.Second},
	"overlap":      {Label: "test", Replicas: 8, Period: 2 * time.Second, Window: 8 * time.Second},
	"watch-window": {Label: "test", Replicas: 3, Period: 2 * time.Second},
}

// testVariant is the variant this test binary's build runs. The modern one
// runs unthrottled here so that the tests stay short; the throttle is the
// benchmark's business.
func testVariant() Variant {
	if stacktest.Design == "modern" {
		return ModernUnthrottled
	}
	return Legacy
}

func TestEveryScenarioShowsTheOutcomeItsDesignMust(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real clusters")
	}
	bin := stacktest.BinDir(t)
	for _, sc := range All() {
		sc := sc
		t.Run(sc.Name, func(t *testing.T) {
			sz, ok := testSizes[sc.Name]
			if !ok {
				t.Fatalf("no test size for scenario %s", sc.Name)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			dir := t.TempDir()
			out, err := Run(ctx, sc, testVariant(), sz, Options{BinDir: bin, Dir: dir, Say: func(f string, a ...interface{}) {
				t.Logf(f, a...)
			}})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range out.Results {
				t.Logf("%s = %.2f %s", r.Name, r.Value, r.Unit)
			}
			if sc.Expect != nil {
				variant := testVariant().Name
				if variant == ModernUnthrottled.Name {
					variant = Modern.Name
				}
				if err := sc.Expect(variant, sz, ResultMap(out.Results)); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

func TestEveryScenarioIsFullyDescribed(t *testing.T) {
	for _, sc := range All() {
		if sc.Title == "" || sc.Reproduces == "" || sc.Explain == "" || sc.Sizes == nil || sc.Cluster == nil || sc.Steps == nil || sc.Results == nil {
			t.Errorf("scenario %s is missing a field", sc.Name)
		}
		for _, sz := range append(sc.Sizes(false, false), sc.Sizes(true, false)...) {
			for i, step := range sc.Steps(sz) {
				if step.Title == "" || step.Say == "" || step.Run == nil {
					t.Errorf("%s step %d is incomplete", sc.Name, i+1)
				}
			}
		}
	}
	if len(All()) != len(presentation) {
		t.Errorf("%d scenarios registered, %d in the presentation order", len(All()), len(presentation))
	}
}

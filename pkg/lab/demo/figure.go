package demo

// Each scenario is about one figure: the goroutines of a scale-up, the
// requests of an idle cluster, the pods created by two managers. The page
// charts that figure beside the pods running, on one scale for both
// designs, and shows it in its second tile. page.js mirrors figureValue.

// Figure names one live figure of a side.
type Figure struct {
	// Key is what the recording and the page's script call it.
	Key string `json:"key"`
	// Label is what the page calls it, under the tile and on the chart.
	Label string `json:"label"`
}

var (
	figureGoroutines = Figure{"go", "goroutines"}
	figureRequests   = Figure{"rq", "requests/s"}
	figureCreated    = Figure{"cr", "pods created"}
	figureLists      = Figure{"lm", "LISTs, last min"}
)

// figureOf is the figure each scenario is about; the others chart
// goroutines.
var figureOf = map[string]Figure{
	"idle":         figureLists,
	"churn":        figureRequests,
	"api-errors":   figureRequests,
	"watch-drop":   figureRequests,
	"watch-window": figureRequests,
	"two-managers": figureCreated,
	"restart":      figureCreated,
	"overlap":      figureCreated,
}

// scenarioFigure returns the figure the named scenario is about.
func scenarioFigure(name string) Figure {
	if f, ok := figureOf[name]; ok {
		return f
	}
	return figureGoroutines
}

// figureValue reads the figure from a side.
func figureValue(key string, s Side) float64 {
	switch key {
	case figureRequests.Key:
		total := 0.0
		for _, r := range s.Rates {
			total += r
		}
		return total
	case figureCreated.Key:
		return float64(s.Created)
	case figureLists.Key:
		return float64(s.ListsLastMin)
	}
	return float64(s.Goroutines)
}

// formatFigure prints a figure as its tile does: rates with a decimal
// below ten, counts whole.
func formatFigure(key string, v float64) string {
	if key == figureRequests.Key {
		return formatRate(v)
	}
	return thousands(int(v + 0.5))
}

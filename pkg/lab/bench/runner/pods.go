package runner

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// TimedGet GETs url, reads the answer whole and returns how long that
// took and the answer's size; an answer other than 200 is an error.
func TimedGet(c *http.Client, url string) (seconds float64, size int, err error) {
	start := time.Now()
	resp, err := c.Get(url)
	if err != nil {
		return 0, 0, err
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		return 0, 0, fmt.Errorf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	return time.Since(start).Seconds(), int(n), nil
}

// PerRequest is how much the counter name (its series matching match)
// grew between two scrapes, divided by the n requests sent between them.
func PerRequest(before, after sampler.Metrics, name string, match map[string]string, n int) float64 {
	return (after.Sum(name, match) - before.Sum(name, match)) / float64(n)
}

// CreatePods creates n pods of a controller's template labelled app=name,
// as the manager would, from FloorClients clients at once.
func CreatePods(ctx context.Context, c client.Interface, name string, n int) error {
	rc := scenario.Controller(name, n, map[string]string{"app": name}, nil)
	template := api.Pod{Labels: rc.DesiredState.PodTemplate.Labels, DesiredState: rc.DesiredState.PodTemplate.DesiredState}
	return scenario.CreatePods(ctx, c, template, n, results.FloorClients)
}

package scripts

import (
	"context"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// webSelector selects the pods of controller web, which most scenarios
// start with.
var webSelector = map[string]string{"app": "web"}

// startWeb creates controller web of n pods, selecting app=web, and
// waits until all of them run.
func startWeb(ctx context.Context, e *scenario.Env, n int) error {
	if err := e.CreateController(scenario.Controller("web", n, webSelector, nil)); err != nil {
		return err
	}
	return e.WaitRunning(ctx, n, scenario.ConvergeLimit(n))
}

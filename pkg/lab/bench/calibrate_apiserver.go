package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// apiserverSetup says how the apiserver's create path is measured.
const apiserverSetup = "the stack's own apiserver process (embedded etcd, same flags as in every scenario), alone: no hollow " +
	"nodes, no controller-manager, and no laboratory reading pods, so no reader of the laboratory's: in every scenario the " +
	"laboratory reads the embedded member's write-ahead log by default, in a process of its own on the same cores. Each " +
	"client POSTs fresh pods without ids, as the manager does, through the project's " +
	"Go client with sync=true, so every answer means the pod is in etcd. A fresh apiserver and data directory per level. " +
	"One more level, apiserver+learner at 64 clients, is the same with the laboratory's learner joined and nothing reading it: " +
	"the learner's price, which a run reading through it pays (-lab_reader=learner, and an apiserver on members started apart). The pairs after it " +
	"price the reader of the write-ahead log the same way, each on fresh storage."

// calibrationPod returns the pod a replication manager would create for
// the scenarios' controllers: the same template, no id.
func calibrationPod() *api.Pod {
	rc := scenario.Controller("calibrate", 1, map[string]string{"app": "calibrate"}, nil)
	return &api.Pod{
		Labels:       rc.DesiredState.PodTemplate.Labels,
		DesiredState: rc.DesiredState.PodTemplate.DesiredState,
	}
}

// bareAPIServer is the stack the calibration measures: the apiserver
// alone. Nothing reads its pods, so it starts no learner (stack.LabNone),
// which would cost the apiserver's embedded member a follower's share of
// every write and take the learner's CPU from the same cores; reader
// stack.LabLearner starts one all the same, to price it.
func bareAPIServer(binDir, dir, reader string) stack.Config {
	return stack.Config{BinDir: binDir, Dir: dir, NoHollowNodes: true, LabReader: reader}
}

// calibrateAPIServer measures pod POSTs per second against a bare
// apiserver at one concurrency level.
func calibrateAPIServer(ctx context.Context, binDir, dir, reader string, clients int, warmup, d time.Duration) (results.Level, error) {
	st, err := stack.Start(bareAPIServer(binDir, dir, reader))
	if err != nil {
		return results.Level{}, fmt.Errorf("starting a bare apiserver: %v", err)
	}
	defer func() {
		st.Stop()
		os.RemoveAll(filepath.Join(dir, "etcd"))
	}()
	c, err := client.New(&client.Config{Host: st.APIURL, Sync: true, UserAgent: "rcbench"})
	if err != nil {
		return results.Level{}, err
	}
	pod := calibrationPod()
	l := load(ctx, "apiserver", clients, warmup, d, func(ctx context.Context, worker, i int) error {
		p := *pod
		_, err := c.CreatePod(api.WithNamespace(ctx, api.NamespaceDefault), &p)
		return err
	})
	return l, nil
}

package bench

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
)

// etcdSetup says how raw etcd is measured.
const etcdSetup = "an embedded etcd member started by pkg/etcd inside rcbench, with the settings the stack's apiserver gives its own " +
	"(v3.5, v2 API, default ticks, fsync on every write, data on the same disk); each client creates fresh keys of a pod's " +
	"size (its v1beta1 JSON) through go-etcd with the apiserver's transport (pkg/tools), over loopback, as a client in another process " +
	"would: the apiserver reaches its own embedded member in memory instead. A fresh member and data directory per level."

// calibrateEtcd measures raw go-etcd creates per second against a fresh
// embedded member at one concurrency level.
func calibrateEtcd(ctx context.Context, dir string, clients int, warmup, d time.Duration) (results.Level, error) {
	srv, err := etcd.Start(etcd.Config{DataDir: dir})
	if err != nil {
		return results.Level{}, err
	}
	defer func() {
		tools.CloseIdleConnections()
		srv.Close()
		os.RemoveAll(dir)
	}()
	c := tools.NewEtcdClient([]string{srv.ClientURL()})
	pod := calibrationPod()
	pod.ID = "0b6a5f2e-4e4f-11f1-8a4e-0242ac120002"
	pod.DesiredState.Manifest.ID = pod.ID
	pod.DesiredState.Manifest.UUID = pod.ID
	value, err := api.Encode(pod)
	if err != nil {
		return results.Level{}, err
	}
	l := load(ctx, "etcd", clients, warmup, d, func(ctx context.Context, worker, i int) error {
		_, err := c.Create(fmt.Sprintf("/calibrate/pods/%d-%d", worker, i), string(value), 0)
		return err
	})
	return l, nil
}

package bench

import (
	"context"
	"errors"
	"time"
)

// etcdSetup says how raw etcd is measured.
const etcdSetup = "not yet available"

// calibrateEtcd is a placeholder until pkg/etcd is merged.
func calibrateEtcd(ctx context.Context, dir string, clients int, warmup, d time.Duration) (Level, error) {
	return Level{}, errors.New("raw etcd calibration needs pkg/etcd")
}

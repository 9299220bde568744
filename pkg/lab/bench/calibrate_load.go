package bench

import (
	"context"
	"sync"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stats"
)

// load runs op from clients goroutines at once: for warmup unmeasured, so
// that connections are open and caches warm, then for d. Only requests
// that begin and end inside the measured window count, so the rate is
// completed requests per second of steady load.
func load(ctx context.Context, target string, clients int, warmup, d time.Duration, op func(ctx context.Context, worker, i int) error) results.Level {
	start := time.Now()
	from, to := start.Add(warmup), start.Add(warmup+d)
	ctx, cancel := context.WithDeadline(ctx, to)
	defer cancel()

	var mu sync.Mutex
	var latencies []float64
	errs := 0
	firstErr := ""
	var wg sync.WaitGroup
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				began := time.Now()
				err := op(ctx, w, i)
				ended := time.Now()
				if began.Before(from) || ended.After(to) {
					continue
				}
				mu.Lock()
				if err != nil {
					errs++
					if firstErr == "" {
						firstErr = err.Error()
					}
				} else {
					latencies = append(latencies, ended.Sub(began).Seconds()*1000)
				}
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	l := results.Level{
		Target:     target,
		Clients:    clients,
		Requests:   len(latencies),
		Errors:     errs,
		Seconds:    d.Seconds(),
		PerSecond:  float64(len(latencies)) / d.Seconds(),
		P50Ms:      stats.Percentile(latencies, 50),
		P90Ms:      stats.Percentile(latencies, 90),
		P99Ms:      stats.Percentile(latencies, 99),
		FirstError: firstErr,
	}
	return l
}

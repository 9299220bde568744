// Command local-up starts a whole cluster on loopback — apiserver with
// embedded etcd, hollow nodes and a controller-manager, each its own
// process — loads an example, prints what to try, streams every log with a
// prefix, and stops exactly what it started on Ctrl-C or when a component
// dies. make run uses it.
//
// Ours: 2014 did this with hack/local-up-cluster.sh.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/version/verflag"
)

var (
	binDir     = flag.String("bin", "", "Directory of the binaries (default: this program's own).")
	design     = flag.String("design", "legacy", "Which controller-manager to run: legacy (2014) or modern.")
	dir        = flag.String("dir", "_output/run", "Directory for etcd data and logs; emptied at start unless -keep.")
	keep       = flag.Bool("keep", false, "Keep the data of the last run instead of starting empty.")
	port       = flag.Int("port", 8080, "The apiserver's port (8080, as in 2014).")
	mgrPort    = flag.Int("manager_port", 10252, "The controller-manager's port for /healthz and /metrics (10252, as in 2014, where the apiserver's /api/v1beta1/validate asks); another free one when it is taken; 0: any free port.")
	nodes      = flag.Int("nodes", 10, "How many hollow nodes.")
	example    = flag.String("example", "examples/guestbook", "Directory of *.json objects to create (empty: none).")
	syncPeriod = flag.Duration("sync_period", 10*time.Second, "The replication manager's synchronize period.")
)

func main() {
	flag.Parse()
	verflag.PrintAndExitIfRequested()
	if *design != "legacy" && *design != "modern" {
		fail("-design must be legacy or modern, not %q", *design)
	}
	if *binDir == "" {
		exe, err := os.Executable()
		if err != nil {
			fail("cannot find the binaries: %v", err)
		}
		*binDir = filepath.Dir(exe)
	}
	if !*keep {
		os.RemoveAll(*dir)
	}

	var mu sync.Mutex
	etcdURL := &urlCatcher{pattern: regexp.MustCompile(`embedded etcd at ([^\s,]+)`)}
	fmt.Printf("starting a %s cluster: apiserver on 127.0.0.1:%d, %d hollow nodes, one controller-manager\n", *design, *port, *nodes)
	st, err := stack.Start(stack.Config{
		BinDir:             *binDir,
		Dir:                *dir,
		Design:             *design,
		APIPort:            *port,
		ManagerPort:        *mgrPort,
		Nodes:              *nodes,
		ControllerManagers: 1,
		SyncPeriod:         *syncPeriod,
		Output: func(component string) io.Writer {
			w := stack.NewPrefixWriter(os.Stdout, fmt.Sprintf("%-21s| ", component), &mu)
			if component == "apiserver" {
				return io.MultiWriter(w, etcdURL)
			}
			return w
		},
	})
	if err != nil {
		fail("%v\n(to use another port: make run RUN_FLAGS=-port=%d, or local-up -port=%[2]d)", err, *port+1)
	}
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)

	if *example != "" {
		kubeClient, err := client.New(&client.Config{Host: st.APIURL, UserAgent: "local-up", Sync: true})
		if err != nil {
			st.Stop()
			fail("%v", err)
		}
		created, err := stack.CreateFromDir(kubeClient, *example)
		if err != nil {
			st.Stop()
			fail("loading %s: %v", *example, err)
		}
		mu.Lock()
		fmt.Printf("\ncreated %s\n", strings.Join(created, ", "))
		mu.Unlock()
		if services := servicesIn(created); len(services) > 0 {
			mu.Lock()
			fmt.Printf("waiting for the endpoints controller to fill the endpoints of %s (up to one %v pass)\n", strings.Join(services, ", "), *syncPeriod)
			mu.Unlock()
			if missing := waitForEndpoints(kubeClient, services, 6**syncPeriod); len(missing) > 0 {
				mu.Lock()
				fmt.Printf("still no endpoints for %s; get endpoints/<service> fails until there are\n", strings.Join(missing, ", "))
				mu.Unlock()
			}
		}
	}
	mu.Lock()
	printHints(os.Stdout, st, hintConfig{
		design:      *design,
		kubecfg:     filepath.Join(*binDir, "kubecfg"),
		etcdURL:     etcdURL.url(),
		dataDir:     *dir,
		nodes:       *nodes,
		managerPort: *mgrPort,
		guestbook:   filepath.Base(*example) == "guestbook",
		syncPeriod:  syncPeriod.String(),
	})
	mu.Unlock()

	if code := stack.Supervise(signals, st, "the cluster", func(string) string { return "" }); code != 0 {
		os.Exit(code)
	}
}

// servicesIn returns the ids of the services among created ("Service/<id>").
func servicesIn(created []string) []string {
	var out []string
	for _, c := range created {
		if id, ok := strings.CutPrefix(c, "Service/"); ok {
			out = append(out, id)
		}
	}
	return out
}

// waitForEndpoints waits until each service has an endpoints object with at
// least one address, so that the hints' get endpoints/<service> answers
// from the start, and returns the services still without.
func waitForEndpoints(c client.Interface, services []string, timeout time.Duration) []string {
	ctx := api.NewDefaultContext()
	stop := time.Now().Add(timeout)
	for {
		var missing []string
		for _, id := range services {
			if e, err := c.GetEndpoints(ctx, id); err != nil || len(e.Endpoints) == 0 {
				missing = append(missing, id)
			}
		}
		if len(missing) == 0 || time.Now().After(stop) {
			return missing
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "local-up: "+format+"\n", args...)
	os.Exit(1)
}

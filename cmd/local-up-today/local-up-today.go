// Command local-up-today starts today's whole control plane on loopback
// from the upstream binaries make today builds (pkg/lab/stack/today),
// loads the 2014 guestbook into it as v1 objects, prints its kubeconfig
// and what to try with kubectl, and stops exactly what it started on
// Ctrl-C or when a component dies. make run STACK=today runs it; it is
// the counterpart of local-up, a binary of its own so that local-up, and
// make run's 2014 cluster, do not link client-go.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/today"
	"github.com/kube-rewind/kube-rewind/pkg/version/verflag"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

var (
	binDir   = flag.String("bin", "", "Directory of today's binaries, make today's _output/today (default: found from the working directory).")
	dir      = flag.String("dir", "_output/run-today", "Directory for credentials, kubeconfigs, etcd's data and the logs; emptied at start.")
	nodes    = flag.Int("nodes", 10, "How many KWOK nodes.")
	managers = flag.Int("managers", 1, "How many kube-controller-managers (two or more elect a leader).")
	example  = flag.String("example", "examples/guestbook", "Directory of 2014 *.json objects to create as v1 objects in the default namespace (empty: none).")
)

func main() {
	flag.Parse()
	verflag.PrintAndExitIfRequested()
	if *binDir == "" {
		*binDir = today.Dir()
	}
	if missing := today.Missing(*binDir); missing != "" {
		fail("%s", missing)
	}
	runDir, err := filepath.Abs(*dir)
	if err != nil {
		fail("%v", err)
	}
	os.RemoveAll(runDir)
	fmt.Printf("starting today's control plane from %s: etcd, kube-apiserver, %d kube-controller-manager, kube-scheduler, KWOK with %d nodes; logs in %s\n", *binDir, *managers, *nodes, runDir)
	start := time.Now()
	st, err := today.Start(today.Config{BinDir: *binDir, Dir: runDir, Nodes: *nodes, ControllerManagers: *managers})
	if err != nil {
		fail("%v", err)
	}
	fmt.Printf("ready in %.1f s\n", time.Since(start).Seconds())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)

	guestbook := false
	if *example != "" {
		if err := load(st, *example); err != nil {
			st.Stop()
			fail("loading %s: %v", *example, err)
		}
		guestbook = filepath.Base(*example) == "guestbook"
	}
	printHints(os.Stdout, st, filepath.Join(*binDir, today.Kubectl), runDir, guestbook)

	if code := stack.Supervise(signals, st, "today's control plane", func(name string) string { return "its log: " + filepath.Join(runDir, name+".log") }); code != 0 {
		os.Exit(code)
	}
}

// load creates the example's objects and waits, a while, for its pods to
// run.
func load(st *today.Stack, dir string) error {
	c, err := st.Clientset()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	created, err := today.CreateExample(ctx, c, metav1.NamespaceDefault, dir)
	if err != nil {
		return err
	}
	fmt.Printf("\ncreated %s (converted from v1beta1)\n", strings.Join(created, ", "))
	if running, err := waitForPods(ctx, c); err != nil {
		fmt.Printf("%d pods running so far (%v)\n", running, err)
	} else {
		fmt.Printf("%d pods running\n", running)
	}
	return nil
}

// waitForPods waits until no pod of the default namespace is Pending, and
// returns how many are Running.
func waitForPods(ctx context.Context, c kubernetes.Interface) (int, error) {
	for {
		pods, err := c.CoreV1().Pods(metav1.NamespaceDefault).List(ctx, metav1.ListOptions{})
		running, pending := 0, 0
		if err == nil {
			for _, p := range pods.Items {
				switch p.Status.Phase {
				case "Running":
					running++
				case "Pending", "":
					pending++
				}
			}
			if pending == 0 && running > 0 {
				return running, nil
			}
		}
		select {
		case <-ctx.Done():
			return running, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// printHints writes every component's address and the commands to try.
func printHints(w io.Writer, st *today.Stack, kubectl, runDir string, guestbook bool) {
	fmt.Fprintf(w, "\nToday's control plane is up. Its components:\n\n")
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	for _, c := range st.Components() {
		note := c.Health + ", " + c.Metrics
		if c.Token != "" {
			note += " (with the admin's token)"
		}
		fmt.Fprintf(tw, "  %s\t%s\tpid %d\t%s\n", c.Name, c.URL, c.Pid(), note)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nKubeconfig (the admin, system:masters): %s\nLogs: %s\n", st.Kubeconfig, filepath.Join(runDir, "*.log"))
	fmt.Fprintf(w, "\nIn another terminal, try:\n\n")
	var lines [][2]string
	add := func(command, comment string) { lines = append(lines, [2]string{command, comment}) }
	add("export KUBECONFIG="+st.Kubeconfig, "")
	add("alias kubectl="+kubectl, "")
	add("kubectl get nodes", "KWOK's nodes, Ready")
	add("kubectl get pods -o wide", "Running on them, with IPs")
	add("kubectl get rc", "")
	if guestbook {
		add("kubectl scale rc frontendcontroller --replicas=5", "two more frontends")
		add("kubectl delete pod <a frontend from the list>", "replaced at once")
		add("kubectl get endpoints frontend", "follows the pods")
		add("kubectl delete rc frontendcontroller", "its pods go too: the garbage collector")
	}
	add("kubectl get lease -n kube-system", "the leader-election locks")
	add("kubectl get --raw /metrics | grep apiserver_request_total | head", "")
	stack.WriteHints(w, lines)
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "local-up-today: "+format+"\n", args...)
	os.Exit(1)
}

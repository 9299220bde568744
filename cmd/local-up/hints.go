package main

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// hintConfig is what the hints need to know beyond the running stack.
type hintConfig struct {
	design      string
	kubecfg     string
	etcdURL     string
	dataDir     string
	nodes       int
	managerPort int
	guestbook   bool
	syncPeriod  string
}

// printHints writes every component's address and the commands to try
// next, worded for the design that runs: the 2014 manager notices a
// deleted pod at its next tick, today's at once through its pod watch.
func printHints(w io.Writer, st *stack.Stack, hc hintConfig) {
	managerURL := st.ManagerURLList()[0]
	fmt.Fprintf(w, "\nThe cluster is up (%s design). Its components:\n\n", map[string]string{"legacy": "2014", "modern": "modern"}[hc.design])
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	fmt.Fprintf(tw, "  apiserver\t%s\tthe v1beta1 API; /healthz, /metrics\n", st.APIURL)
	etcd := hc.etcdURL
	if etcd == "" {
		etcd = "(see the apiserver's log)"
	}
	fmt.Fprintf(tw, "  etcd\t%s\tembedded in the apiserver; data in %s\n", etcd, filepath.Join(hc.dataDir, "etcd"))
	fmt.Fprintf(tw, "  controller-manager\t%s\t%s; /healthz, /metrics\n", managerURL, stack.ManagerBinary(hc.design))
	fmt.Fprintf(tw, "  hollow-node\t%s\t%d minions; /healthz, /metrics\n", st.HollowURL, hc.nodes)
	tw.Flush()
	if want := fmt.Sprintf("127.0.0.1:%d", hc.managerPort); hc.managerPort != 0 && !strings.HasSuffix(managerURL, want) {
		fmt.Fprintf(w, "\nPort %d was taken, so the controller-manager serves on %s instead:\nuse that address where the README and examples say 127.0.0.1:%d\n(the apiserver's /api/v1beta1/validate, which asks port %[1]d, will not find it).\n",
			hc.managerPort, strings.TrimPrefix(managerURL, "http://"), hc.managerPort)
	}

	fmt.Fprintf(w, "\nIn another terminal, try:\n\n")
	var lines [][2]string
	add := func(command, comment string) { lines = append(lines, [2]string{command, comment}) }
	add(fmt.Sprintf("alias kubecfg=\"%s -h %s\"", hc.kubecfg, st.APIURL), "")
	add("kubecfg list pods", "")
	add("kubecfg list replicationControllers", "")
	if hc.guestbook {
		add("kubecfg resize frontendController 5", "two more frontends within a second")
		if hc.design == "modern" {
			add("kubecfg delete pods/<an id from the list>", "replaced at once: the manager watches pods")
		} else {
			add("kubecfg delete pods/<an id from the list>", "replaced at the next tick, within "+hc.syncPeriod)
		}
		add("kubecfg get endpoints/frontend", "")
	} else {
		add("kubecfg run dockerfile/nginx 3 nginx", "a controller of 3 pods")
	}
	if hc.design == "modern" {
		add("kubecfg list endpoints", "kube-controller-manager in it is the leader-election lock, not a service")
	}
	add("kubecfg list minions", "")
	add(fmt.Sprintf("curl -s %s/metrics | grep go_goroutines", managerURL), "the controller-manager's goroutines")
	stack.WriteHints(w, lines)
}

// urlCatcher remembers the first match of pattern's group in what is
// written to it: the embedded etcd's address, from the apiserver's output.
type urlCatcher struct {
	pattern *regexp.Regexp
	mu      sync.Mutex
	found   string
}

func (c *urlCatcher) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.found == "" {
		if m := c.pattern.FindSubmatch(b); m != nil {
			c.found = string(m[1])
		}
	}
	return len(b), nil
}

func (c *urlCatcher) url() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.found
}

// Command etcd runs one etcd member in a process of its own: pkg/etcd's,
// the member our apiserver embeds (go.etcd.io/etcd/server/v3 v3.5.35),
// here serving today's kube-apiserver over etcd's v3 API, or v0.4's
// apiserver over its v2 API. It is laboratory: make today builds it into
// _output/today beside the upstream binaries, for today's stack
// (pkg/lab/stack/today), and make build into _output/bin, for the stack
// of v0.4's binaries (pkg/lab/stack, original.go).
//
// Ours: today's stack does not use Debian's etcd-server (3.4.23), which
// lacks the progress requests kube-apiserver 1.37 needs for consistent
// reads from its watch cache, nor a second copy of etcd: it runs the
// member this module already links, with its settings (default ticks,
// fsync on, the v2 API on as well, which no client of today's stack
// uses), so that the two stacks store in the same etcd and a difference in
// etcd's cost is its clients'. It is its own process so that its CPU, its
// memory and its database are measured apart from the apiserver's.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/kube-rewind/kube-rewind/pkg/etcd"
)

var (
	dataDir    = flag.String("data_dir", "", "The member's data directory (required); starting again with it keeps every key.")
	clientPort = flag.Int("client_port", 2379, "The loopback port of the client listener: v3 gRPC, v2 HTTP, /health and /metrics (0: any free port).")
	peerPort   = flag.Int("peer_port", 0, "The loopback port of the peer listener (0: any free port).")
	v2Port     = flag.Int("v2_port", 0, "The loopback port of a listener that serves the v2 API alone over plain HTTP/1, without the multiplexer that drops a new connection's request line of over 4 KB (0: none; see pkg/etcd's Config.V2Port).")
	walSegment = flag.Int64("wal_segment_bytes", 0, "The size of each of the member's write-ahead log segments (0: etcd's 64 MB). Ours: for the laboratory's reader of the log, which reads the segment it is in from its start each time it looks; our apiserver's embedded member takes the same with its -etcd_wal_segment_bytes.")
)

func main() {
	flag.Parse()
	if *dataDir == "" {
		fmt.Fprintln(os.Stderr, "usage: etcd -data_dir DIR [-client_port N] [-peer_port N]")
		os.Exit(2)
	}
	s, err := etcd.Start(etcd.Config{DataDir: *dataDir, ClientPort: *clientPort, PeerPort: *peerPort, LogToStderr: true, WALSegmentBytes: *walSegment, V2Port: *v2Port})
	if err != nil {
		fmt.Fprintf(os.Stderr, "etcd: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("etcd member serving at %s, data in %s\n", s.ClientURL(), *dataDir)
	if s.V2URL() != "" {
		fmt.Printf("the v2 API alone at %s\n", s.V2URL())
	}
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	<-signals
	s.Close()
}

package util

// Follows kubernetes/kubernetes pkg/util/logs.go as of v0.4 (October 2014):
// every binary that imported this package logged to stderr by default, sent
// the standard library's log through glog, and flushed glog every
// -log_flush_frequency.

import (
	"flag"
	"log"
	"time"

	"github.com/golang/glog"
)

var logFlushFreq = flag.Duration("log_flush_frequency", 5*time.Second, "Maximum number of seconds between log flushes")

// v0.4 turned -logtostderr on here, as a stopgap until the binaries agreed
// on log directories; glog's own default is files in the temp directory.
// -logtostderr=false on the command line still wins.
func init() {
	flag.Set("logtostderr", "true")
}

// glogWriter hands what the standard library's log writes to glog.Info.
type glogWriter struct{}

func (glogWriter) Write(data []byte) (int, error) {
	glog.Info(string(data))
	return len(data), nil
}

// Ours: glog.Fatal now exits with status 2 (glog v1.2, like an abort);
// the 2014 glog exited 255. A binary of this port that stops on a fatal
// log line, such as a controller-manager without -master, exits 2 where
// v0.4's exited 255. kubecfg, whose exit status scripts checked, still
// exits 255 on every failure.

// InitLogs sends the standard library's log through glog and flushes glog
// every -log_flush_frequency (glog's own interval is 30 s). main calls it
// after flag.Parse.
func InitLogs() {
	log.SetOutput(glogWriter{})
	log.SetFlags(0)
	go Forever(glog.Flush, *logFlushFreq)
}

// FlushLogs writes out whatever glog holds; main defers it.
func FlushLogs() {
	glog.Flush()
}

package faults

import (
	"flag"
	"os"
	"testing"
)

// TestMain sends glog to stderr, so the tests leave no log files behind.
func TestMain(m *testing.M) {
	flag.Parse()
	flag.Set("logtostderr", "true")
	os.Exit(m.Run())
}

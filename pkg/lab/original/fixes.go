package original

// The edits make applies to the exported v0.4 tree before building it.
// Three are fixes without which today's Go cannot build the binaries or
// run them through a scale-up; the last two add measurement pages and
// change nothing the binaries do. Each is our own code written into a new
// file of the scratch copy, plus, for three of them, one call renamed in
// place; no upstream text is kept here.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

type fix struct {
	name string
	// why says what the edit restores, for BUILD-INFO and the docs.
	why string
	// file is a new file of the tree, relative to its root, and its text.
	file, text string
	// replace, when set, renames one call in an existing file: the
	// exact text old must occur once in path and becomes new.
	replace *replacement
}

type replacement struct {
	path, old, new string
}

var fixes = []fix{{
	name: "assetfs Size",
	why: "Go 1.5 gave bytes.Reader a Size method, so go-bindata-assetfs's AssetFile, which embeds both a *bytes.Reader " +
		"and a FakeFile, has two Size methods at one depth and no longer compiles as an os.FileInfo; an explicit Size " +
		"returns the FakeFile's, the one Go 1.3 chose (only cmd/apiserver links this package, for its /static UI)",
	file: "Godeps/_workspace/src/github.com/elazarl/go-bindata-assetfs/kube_rewind_size.go",
	text: `package assetfs

// Added by kube-rewind's make original: with Go 1.5 and later both embedded
// fields have a Size method; this one picks the FakeFile's, as Go 1.3 did.
func (f *AssetFile) Size() int64 { return f.FakeFile.Size() }
`,
}, {
	name: "scheme-less host",
	why: "Go 1.3's url.Parse read \"127.0.0.1:8080\" as a bare path, so pkg/client's DefaultServerURL went on to prefix " +
		"http://; since Go 1.8 it is an error (\"first path segment in URL cannot contain colon\"), and the apiserver, " +
		"whose client to itself is built from such a host:port, dies at start; the host is parsed as Go 1.3 did",
	file: "pkg/client/kube_rewind_parsehost.go",
	text: `package client

import "net/url"

// parseHostAsGo13 is url.Parse, except that a string Go 1.3 read as a bare
// path (its first byte is not a letter, so it has no scheme) is read so
// again instead of failing, as Go 1.8 and later do for "127.0.0.1:8080".
// Added by kube-rewind's make original.
func parseHostAsGo13(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil && s != "" && !('a' <= s[0]|0x20 && s[0]|0x20 <= 'z') {
		return &url.URL{Path: s}, nil
	}
	return u, err
}
`,
	replace: &replacement{path: "pkg/client/helper.go", old: "url.Parse(base)", new: "parseHostAsGo13(base)"},
}, {
	name: "replica labels",
	why: "Go 1.6 made the runtime stop a program that writes a map while another goroutine uses it; v0.4's createReplica " +
		"writes the replicationController label into the controller's own pod-template map from each of its create " +
		"goroutines at once while others encode it, which Go 1.3 let pass (the same key and value every time, so no " +
		"goroutine saw a torn map) and today's Go ends with \"fatal error: concurrent map iteration and map write\", " +
		"killing the controller-manager in the middle of a scale-up; each goroutine now writes into a copy of its own, " +
		"as upstream did in 1ffc82dfe soon after v0.4, and the pods it creates are the same",
	file: "pkg/controller/kube_rewind_labels.go",
	text: `package controller

import "github.com/GoogleCloudPlatform/kubernetes/pkg/api"

// ownTemplateLabels gives a create goroutine's copy of the controller a
// label map of its own, so that writing the replicationController label
// into it is no concurrent write to the map every goroutine shares.
// Added by kube-rewind's make original: Go 1.6 and later stop the process
// on such a write, which Go 1.3 let pass.
func ownTemplateLabels(controllerSpec *api.ReplicationController) map[string]string {
	shared := controllerSpec.DesiredState.PodTemplate.Labels
	if shared == nil {
		return nil
	}
	own := make(map[string]string, len(shared)+1)
	for k, v := range shared {
		own[k] = v
	}
	controllerSpec.DesiredState.PodTemplate.Labels = own
	return own
}
`,
	replace: &replacement{path: "pkg/controller/replication_controller.go",
		old: "labels := controllerSpec.DesiredState.PodTemplate.Labels", new: "labels := ownTemplateLabels(&controllerSpec)"},
}, {
	name: "manager metrics page",
	why: "measurement only, not a fix: the controller-manager also answers /metrics on its -port with its goroutine " +
		"count and resident memory, read as the benchmark reads ours; v0.4 served only /healthz there, and nothing " +
		"else it does changes",
	file: "cmd/controller-manager/kube_rewind_metrics.go",
	text: `package main

// Added by kube-rewind's make original, to measure this binary as ours is
// measured: /metrics on the manager's own port (the default mux, where
// /healthz already is), with the goroutine count and resident memory.

import (
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
)

func init() {
	http.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "# TYPE go_goroutines gauge\ngo_goroutines %d\n", runtime.NumGoroutine())
		if statm, err := os.ReadFile("/proc/self/statm"); err == nil {
			if f := strings.Fields(string(statm)); len(f) > 1 {
				if pages, err := strconv.ParseInt(f[1], 10, 64); err == nil {
					fmt.Fprintf(w, "# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes %d\n", pages*int64(os.Getpagesize()))
				}
			}
		}
	})
}
`,
}, {
	name: ProfilesFix,
	why: "measurement only, not a fix: with -profiling_address the apiserver also serves Go's profiles " +
		"(net/http/pprof) on that address, so that the benchmark profiles it as it profiles ours; its API keeps a mux " +
		"of its own, so nothing it serves changes, and without the flag nothing listens",
	file: "cmd/apiserver/kube_rewind_profiling.go",
	text: `package main

// Added by kube-rewind's make original, to profile this binary as ours is
// profiled: -profiling_address serves Go's profiles there, from the default
// mux, which the API (on a mux of its own) does not use.

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
)

var profilingAddress = flag.String("profiling_address", "", "kube-rewind: serve Go's profiles (/debug/pprof) on this address; empty serves none")

// parseFlagsAndServeProfiles parses the flags, then listens on
// -profiling_address if it names one; an address taken ends the process,
// as a taken -port does.
func parseFlagsAndServeProfiles() {
	flag.Parse()
	if *profilingAddress == "" {
		return
	}
	l, err := net.Listen("tcp", *profilingAddress)
	if err != nil {
		fmt.Fprintf(os.Stderr, "-profiling_address: %v\n", err)
		os.Exit(1)
	}
	go http.Serve(l, nil)
}
`,
	replace: &replacement{path: "cmd/apiserver/apiserver.go", old: "flag.Parse()", new: "parseFlagsAndServeProfiles()"},
}}

// ProfilesFix names the edit that lets the apiserver serve its profiles:
// binaries built before it take no -profiling_address (HasEdit).
const ProfilesFix = "apiserver profiles page"

// applyFixes makes every edit in the tree rooted at root.
func applyFixes(root string) error {
	for _, f := range fixes {
		if f.replace != nil {
			path := filepath.Join(root, filepath.FromSlash(f.replace.path))
			data, err := os.ReadFile(path)
			if err != nil {
				return fmt.Errorf("%s: %v", f.name, err)
			}
			if n := bytes.Count(data, []byte(f.replace.old)); n != 1 {
				return fmt.Errorf("%s: %q occurs %d times in %s, not once: is this commit %.7s?", f.name, f.replace.old, n, f.replace.path, Commit)
			}
			data = bytes.Replace(data, []byte(f.replace.old), []byte(f.replace.new), 1)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				return err
			}
		}
		path := filepath.Join(root, filepath.FromSlash(f.file))
		if _, err := os.Stat(filepath.Dir(path)); err != nil {
			return fmt.Errorf("%s: %v: is this commit %.7s?", f.name, err, Commit)
		}
		if err := os.WriteFile(path, []byte(f.text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

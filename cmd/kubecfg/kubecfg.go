package main

// Follows kubernetes/kubernetes cmd/kubecfg/kubecfg.go as of v0.4 (October
// 2014): the same single-dash flags and the same exit codes (1 with the
// usage text when no verb is given, 255 for every failure). The work is done
// by pkg/kubecfg; this file parses flags and wires a client.
//
// Ours: -proxy, -www and -open_browser (a local proxy serving the 2014 web
// UI) and the TLS flags are not offered: there is no UI to serve and the
// apiserver of this port speaks plain HTTP on loopback.

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/kubecfg"
)

// exitFailure is what glog.Fatal exited with in 2014.
const exitFailure = 255

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is kubecfg with its arguments and streams given, returning the exit
// status, so tests can run it in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kubecfg", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		opts          = kubecfg.Options{Stdin: stdin, Stdout: stdout, Stderr: stderr}
		host          = fs.String("h", "", "The host to connect to.")
		authConfig    = fs.String("auth", os.Getenv("HOME")+"/.kubernetes_auth", "Path to the auth info file. If missing, prompt the user. Only used if doing https.")
		preventSkew   = fs.Bool("expect_version_match", false, "Fail if server's version doesn't match own version.")
		serverVersion kubecfg.VersionFlag
		version       kubecfg.VersionFlag
	)
	fs.Var(&serverVersion, "server_version", "Print the server's version information and quit")
	fs.Var(&version, "version", "Print version information and quit")
	fs.StringVar(&opts.Config, "c", "", "Path or URL to the config file, or '-' to read from STDIN")
	fs.StringVar(&opts.Selector, "l", "", "Selector (label query) to use for listing")
	fs.DurationVar(&opts.UpdatePeriod, "u", 60*time.Second, "Update interval period")
	fs.StringVar(&opts.PortSpec, "p", "", "The port spec, comma-separated list of <external>:<internal>,...")
	fs.IntVar(&opts.ServicePort, "s", -1, "If positive, create and run a corresponding service on this port, only used with 'run'")
	fs.BoolVar(&opts.JSON, "json", false, "If true, print raw JSON for responses")
	fs.BoolVar(&opts.YAML, "yaml", false, "If true, print raw YAML for responses")
	fs.BoolVar(&opts.Verbose, "verbose", false, "If true, print extra information")
	fs.StringVar(&opts.TemplateFile, "template_file", "", "If present, load this file as a golang template and use it for output printing")
	fs.StringVar(&opts.Template, "template", "", "If present, parse this string as a golang template and use it for output printing")
	fs.StringVar(&opts.Image, "image", "", "Image used when updating a replicationController. Will apply to the first container in the pod template.")
	// glog's flags (-v, -logtostderr, ...) were on kubecfg's command line
	// in 2014 too; they share glog's state.
	flag.CommandLine.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, f.Name, f.Usage) })
	fs.Usage = func() {
		kubecfg.Usage(stderr)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}

	if version != kubecfg.VersionFalse {
		fmt.Fprintln(stdout, kubecfg.FormatVersion(kubecfg.ClientVersion, version == kubecfg.VersionRaw))
		return 0
	}

	config := &client.Config{Host: *host, UserAgent: "kubecfg"}
	if config.Host == "" {
		config.Host = os.Getenv("KUBERNETES_MASTER")
	}
	if config.Host == "" {
		config.Host = "http://localhost:8080"
	}
	fail := func(format string, a ...interface{}) int {
		fmt.Fprintln(stderr, oneLine(fmt.Sprintf(format, a...)))
		return exitFailure
	}
	if client.IsConfigTransportSecure(config) {
		auth, err := kubecfg.LoadAuthInfo(*authConfig, stdin, stdout)
		if err != nil {
			return fail("Error loading auth: %v", err)
		}
		config.Username = auth.User
		config.Password = auth.Password
	}
	c, err := client.New(config)
	if err != nil {
		return fail("Can't configure client: %v", err)
	}

	// Ours: v0.4 printed these two failures on stdout; they go to stderr
	// here with every other error. The exit status stays 1.
	if serverVersion != kubecfg.VersionFalse || *preventSkew {
		got, err := kubecfg.GetServerVersion(c)
		if err != nil {
			fmt.Fprintln(stderr, oneLine(fmt.Sprintf("Couldn't read version from server: %v", err)))
			return 1
		}
		if serverVersion == kubecfg.VersionRaw {
			fmt.Fprintf(stdout, "%#v\n", *got)
			return 0
		}
		if serverVersion == kubecfg.VersionTrue {
			fmt.Fprintf(stdout, "Server: Kubernetes %s\n", got.GitVersion)
			return 0
		}
		if *got != kubecfg.ClientVersion {
			fmt.Fprintf(stderr, "Server version (%#v) differs from client version (%#v)!\n", *got, kubecfg.ClientVersion)
			return 1
		}
	}

	if fs.NArg() < 1 {
		fs.Usage()
		return 1
	}
	ctx := api.NewContext()
	handled, err := kubecfg.ExecuteAPIRequest(ctx, c, fs.Args(), &opts)
	if !handled {
		handled, err = kubecfg.ExecuteControllerRequest(ctx, c, fs.Args(), &opts)
	}
	if !handled {
		return fail("Unknown command %s", fs.Arg(0))
	}
	if err != nil {
		return fail("%v", err)
	}
	return 0
}

// oneLine folds a message onto a single line, so that each failure is one
// line on stderr.
//
// Ours: control characters that are not white space (an escape sequence
// inside a hostile id the server echoes) are written as escapes, so the
// line is also safe to show on a terminal; v0.4 printed them raw.
func oneLine(msg string) string {
	return kubecfg.EscapeControl(strings.Join(strings.Fields(msg), " "))
}

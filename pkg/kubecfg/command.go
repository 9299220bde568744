package kubecfg

// Follows kubernetes/kubernetes cmd/kubecfg/kubecfg.go as of v0.4 (October
// 2014): executeAPIRequest and executeControllerRequest, the two halves of
// the verb dispatch. The flags stay in cmd/kubecfg; what they select
// arrives here as Options.
//
// Ours: v0.4 ended every failure with glog.Fatalf, which exits 255 after
// dumping every goroutine's stack. These functions return the error
// instead; cmd/kubecfg prints it as one line and still exits 255.

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
)

// Options are the flags that shape what a verb sends and prints.
type Options struct {
	// Config is -c: a file, an http(s) URL, or "-" for Stdin.
	Config string
	// Selector is -l, sent as labels= on the REST verbs.
	Selector string
	// UpdatePeriod is -u, the pause between pod deletions of rollingupdate.
	UpdatePeriod time.Duration
	// PortSpec is -p and ServicePort -s, both for run.
	PortSpec    string
	ServicePort int
	// Image is -image, for rollingupdate.
	Image string

	JSON         bool
	YAML         bool
	Template     string
	TemplateFile string
	Verbose      bool

	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// parser knows the resources a config file may be sent to.
var parser = NewParser(map[string]api.Object{
	"pods":                   &api.Pod{},
	"services":               &api.Service{},
	"replicationControllers": &api.ReplicationController{},
	"minions":                &api.Minion{},
})

// readOnlyStorage can be read with get and list but not written.
//
// Ours: v0.4's kubecfg could not show endpoints at all.
var readOnlyStorage = map[string]bool{"endpoints": true}

func prettyWireStorage() string {
	return strings.Join(parser.SupportedWireStorage(), "|")
}

// prettyReadableStorage lists what get and list accept.
func prettyReadableStorage() string {
	all := parser.SupportedWireStorage()
	for name := range readOnlyStorage {
		all = append(all, name)
	}
	sort.Strings(all)
	return strings.Join(all, "|")
}

// Usage writes the text kubecfg prints before its flag defaults.
func Usage(w io.Writer) {
	fmt.Fprintf(w, `Usage: kubecfg -h [-c config/file.json|url|-] <method>

Kubernetes REST API:

  kubecfg [OPTIONS] get|list|create|delete|update <%s>[/<id>]
  kubecfg [OPTIONS] get|list endpoints[/<id>]
  kubecfg [OPTIONS] -c <config> print <%s>

Manage replication controllers:

  kubecfg [OPTIONS] stop|rm <controller>
  kubecfg [OPTIONS] [-u <time>] [-image <image>] rollingupdate <controller>
  kubecfg [OPTIONS] resize <controller> <replicas>

Launch a simple ReplicationController with a single container based
on the given image:

  kubecfg [OPTIONS] [-p <port spec>] [-s <service port>] run <image> <replicas> <controller>

Options:
`, prettyWireStorage(), prettyWireStorage())
}

// storagePathFromArg splits "pods/foo" into the storage "pods", the path
// "pods/foo" and whether an id follows.
func storagePathFromArg(arg string) (storage, path string, hasSuffix bool) {
	path = strings.Trim(arg, "/")
	segments := strings.SplitN(path, "/", 2)
	storage = segments[0]
	if len(segments) > 1 && segments[1] != "" {
		hasSuffix = true
	}
	return storage, path, hasSuffix
}

func checkStorage(storage string) bool {
	for _, allowed := range parser.SupportedWireStorage() {
		if allowed == storage {
			return true
		}
	}
	return false
}

// GetPrinter returns the printer the output flags ask for: JSON, YAML, a
// template, or tables.
func GetPrinter(opts *Options) (ResourcePrinter, error) {
	switch {
	case opts.JSON:
		return &IdentityPrinter{}, nil
	case opts.YAML:
		return &YAMLPrinter{}, nil
	case opts.TemplateFile != "" || opts.Template != "":
		text := opts.Template
		if opts.TemplateFile != "" {
			data, err := os.ReadFile(opts.TemplateFile)
			if err != nil {
				return nil, fmt.Errorf("Error reading template %s, %v", opts.TemplateFile, err)
			}
			text = string(data)
		}
		tmpl, err := template.New("output").Parse(text)
		if err != nil {
			return nil, fmt.Errorf("Error parsing template %q, %v", text, err)
		}
		return &TemplatePrinter{Template: tmpl}, nil
	default:
		return NewHumanReadablePrinter(), nil
	}
}

// readConfigData reads the -c source: stdin, a URL or a file.
func readConfigData(opts *Options) ([]byte, error) {
	source := opts.Config
	if source == "-" {
		data, err := io.ReadAll(opts.Stdin)
		if err != nil {
			return nil, fmt.Errorf("Unable to read from STDIN: %v", err)
		}
		return data, nil
	}
	if strings.HasPrefix(source, "http://") || strings.HasPrefix(source, "https://") {
		resp, err := http.Get(source)
		if err != nil {
			return nil, fmt.Errorf("Unable to access URL %v: %v", source, err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("Unable to read URL, server reported %s", resp.Status)
		}
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, fmt.Errorf("Unable to read URL %v: %v", source, err)
		}
		return data, nil
	}
	data, err := os.ReadFile(source)
	if err != nil {
		return nil, fmt.Errorf("Unable to read %v: %v", source, err)
	}
	return data, nil
}

// readConfig reads the -c source and decodes it as an object of storage.
func readConfig(storage string, opts *Options) (api.Object, error) {
	if opts.Config == "" {
		return nil, fmt.Errorf("Need config file (-c)")
	}
	data, err := readConfigData(opts)
	if err != nil {
		return nil, err
	}
	obj, err := parser.ToObject(data, storage)
	if err != nil {
		return nil, fmt.Errorf("Error parsing %v as an object for %v: %v", opts.Config, storage, err)
	}
	return obj, nil
}

// ExecuteAPIRequest runs the REST verbs get, list, delete, create, update
// and print. It reports false when args[0] is none of them.
func ExecuteAPIRequest(ctx api.Context, c *client.Client, args []string, opts *Options) (bool, error) {
	method := args[0]
	arg := ""
	if len(args) > 1 {
		arg = args[1]
	}
	storage, path, hasSuffix := storagePathFromArg(arg)
	writable := checkStorage(storage)
	readable := writable || readOnlyStorage[storage]

	verb := ""
	switch method {
	case "get":
		verb = "GET"
		if !readable || !hasSuffix {
			return true, fmt.Errorf("usage: kubecfg [OPTIONS] %s <%s>[/<id>]", method, prettyReadableStorage())
		}
	case "list":
		verb = "GET"
		if !readable || hasSuffix {
			return true, fmt.Errorf("usage: kubecfg [OPTIONS] %s <%s>", method, prettyReadableStorage())
		}
	case "delete":
		verb = "DELETE"
		if !writable || !hasSuffix {
			return true, fmt.Errorf("usage: kubecfg [OPTIONS] %s <%s>/<id>", method, prettyWireStorage())
		}
	case "create":
		verb = "POST"
		if !writable || hasSuffix {
			return true, fmt.Errorf("usage: kubecfg [OPTIONS] %s <%s>", method, prettyWireStorage())
		}
	case "update":
		verb = "PUT"
		if !writable || !hasSuffix {
			return true, fmt.Errorf("usage: kubecfg [OPTIONS] %s <%s>/<id>", method, prettyWireStorage())
		}
	case "print":
		if !writable {
			return true, fmt.Errorf("usage: kubecfg [OPTIONS] -c <config> %s <%s>", method, prettyWireStorage())
		}
	default:
		return false, nil
	}

	printer, err := GetPrinter(opts)
	if err != nil {
		return true, err
	}
	if method == "print" {
		obj, err := readConfig(storage, opts)
		if err != nil {
			return true, err
		}
		return true, printer.PrintObj(obj, opts.Stdout)
	}

	r := c.Verb(verb).Context(ctx).Path(path)
	if len(opts.Selector) > 0 {
		r.ParseSelectorParam("labels", opts.Selector)
	}
	if method == "create" || method == "update" {
		// Ours: v0.4 asked the server for the resourceVersion before
		// checking the arguments or reading the file; checking and
		// reading first means a bad command costs no request.
		obj, err := readConfig(storage, opts)
		if err != nil {
			return true, err
		}
		if method == "update" {
			// The PUT must carry the stored resourceVersion, or the
			// server refuses it (or, in 2014, took it as a create).
			current, err := c.Verb("GET").Context(ctx).Path(path).Do().Get()
			if err != nil {
				return true, err
			}
			obj.GetTypeMeta().ResourceVersion = current.GetTypeMeta().ResourceVersion
		}
		data, err := api.Encode(obj)
		if err != nil {
			return true, err
		}
		// Ours: v0.4 logged this with glog.Infof, and since every v0.4
		// binary logged to stderr it appeared there behind glog's line
		// header; here it is the same text on stderr without the header.
		if opts.Verbose {
			fmt.Fprintf(opts.Stderr, "Parsed config file successfully; sending:\n%s\n", data)
		}
		r.Body(data)
	}
	obj, err := r.Do().Get()
	if err != nil {
		return true, err
	}
	if err := printer.PrintObj(obj, opts.Stdout); err != nil {
		return true, fmt.Errorf("Failed to print: %v", err)
	}
	fmt.Fprint(opts.Stdout, "\n")
	return true, nil
}

// ExecuteControllerRequest runs stop, rm, rollingupdate, run and resize. It
// reports false when args[0] is none of them.
func ExecuteControllerRequest(ctx api.Context, c client.Interface, args []string, opts *Options) (bool, error) {
	parseController := func() (string, error) {
		if len(args) != 2 {
			return "", fmt.Errorf("usage: kubecfg [OPTIONS] stop|rm|rollingupdate <controller>")
		}
		return args[1], nil
	}
	var err error
	switch args[0] {
	case "stop", "rm", "rollingupdate":
		name, perr := parseController()
		if perr != nil {
			return true, perr
		}
		switch args[0] {
		case "stop":
			err = StopController(ctx, name, c, opts.Stdout)
		case "rm":
			err = DeleteController(ctx, name, c)
		default:
			err = Update(ctx, name, c, opts.UpdatePeriod, opts.Image, opts.Stdout)
		}
	case "run":
		if len(args) != 4 {
			return true, fmt.Errorf("usage: kubecfg [OPTIONS] run <image> <replicas> <controller>")
		}
		replicas, perr := strconv.Atoi(args[2])
		if perr != nil {
			return true, fmt.Errorf("Error parsing replicas: %v", perr)
		}
		err = RunController(ctx, args[1], args[3], replicas, c, opts.PortSpec, opts.ServicePort, opts.Stdout)
	case "resize":
		if len(args) < 3 {
			return true, fmt.Errorf("usage: kubecfg resize <controller> <replicas>")
		}
		replicas, perr := strconv.Atoi(args[2])
		if perr != nil {
			return true, fmt.Errorf("Error parsing replicas: %v", perr)
		}
		err = ResizeController(ctx, args[1], replicas, c, opts.Stdout)
	default:
		return false, nil
	}
	return true, err
}

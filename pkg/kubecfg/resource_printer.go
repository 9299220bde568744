package kubecfg

// Follows kubernetes/kubernetes pkg/kubecfg/resource_printer.go as of v0.4
// (October 2014): objects print as a table (one handler per type), as
// v1beta1 JSON, as YAML, or through a Go template.

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"text/tabwriter"
	"text/template"
	"unicode"
	"unicode/utf8"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"sigs.k8s.io/yaml"
)

// ResourcePrinter prints API objects.
type ResourcePrinter interface {
	// Print prints a JSON body.
	Print([]byte, io.Writer) error
	// PrintObj prints a decoded object.
	PrintObj(api.Object, io.Writer) error
}

// IdentityPrinter prints the v1beta1 JSON, as the server sends it.
type IdentityPrinter struct{}

// Print writes data unchanged.
func (i *IdentityPrinter) Print(data []byte, w io.Writer) error {
	_, err := w.Write(data)
	return err
}

// PrintObj writes obj as v1beta1 JSON, kind and apiVersion included.
func (i *IdentityPrinter) PrintObj(obj api.Object, w io.Writer) error {
	data, err := api.Encode(obj)
	if err != nil {
		return err
	}
	return i.Print(data, w)
}

// YAMLPrinter prints YAML.
type YAMLPrinter struct{}

// Print reads data as JSON and writes it as YAML.
func (y *YAMLPrinter) Print(data []byte, w io.Writer) error {
	var obj interface{}
	if err := json.Unmarshal(data, &obj); err != nil {
		return err
	}
	output, err := yaml.Marshal(obj)
	if err != nil {
		return err
	}
	_, err = w.Write(output)
	return err
}

// PrintObj writes obj as v0.4 did (see MarshalYAML): keys in the order of
// the object's fields, resourceVersion quoted. Decoded objects carry no kind
// or apiVersion, so neither appears, as in 2014.
func (y *YAMLPrinter) PrintObj(obj api.Object, w io.Writer) error {
	output, err := MarshalYAML(obj)
	if err != nil {
		return err
	}
	_, err = w.Write(output)
	return err
}

// TemplatePrinter prints through a Go template over the decoded object:
// "{{.ID}} {{.DesiredState.Replicas}}".
type TemplatePrinter struct {
	Template *template.Template
}

// Print decodes data and prints it through the template.
func (t *TemplatePrinter) Print(data []byte, w io.Writer) error {
	obj, err := api.Decode(data)
	if err != nil {
		return err
	}
	return t.PrintObj(obj, w)
}

// PrintObj prints obj through the template.
func (t *TemplatePrinter) PrintObj(obj api.Object, w io.Writer) error {
	return t.Template.Execute(w, obj)
}

type handlerEntry struct {
	columns   []string
	printFunc reflect.Value
}

// HumanReadablePrinter prints tables: a header, a row of dashes, one row
// per object, aligned by a tabwriter.
type HumanReadablePrinter struct {
	handlerMap map[reflect.Type]*handlerEntry
}

// NewHumanReadablePrinter returns a printer that knows the API's types.
func NewHumanReadablePrinter() *HumanReadablePrinter {
	printer := &HumanReadablePrinter{make(map[reflect.Type]*handlerEntry)}
	printer.addDefaultHandlers()
	return printer
}

// Handler registers printFunc, a func(*SomeType, io.Writer) error, to print
// objects of that type under columns.
func (h *HumanReadablePrinter) Handler(columns []string, printFunc interface{}) error {
	v := reflect.ValueOf(printFunc)
	if err := validatePrintHandlerFunc(v); err != nil {
		return err
	}
	h.handlerMap[v.Type().In(0)] = &handlerEntry{columns: columns, printFunc: v}
	return nil
}

func validatePrintHandlerFunc(printFunc reflect.Value) error {
	if printFunc.Kind() != reflect.Func {
		return fmt.Errorf("invalid print handler: %v is not a function", printFunc.Type())
	}
	t := printFunc.Type()
	if t.NumIn() != 2 || t.NumOut() != 1 ||
		t.In(1) != reflect.TypeOf((*io.Writer)(nil)).Elem() ||
		t.Out(0) != reflect.TypeOf((*error)(nil)).Elem() {
		return fmt.Errorf("invalid print handler %v: want func(obj *T, w io.Writer) error", t)
	}
	return nil
}

var (
	podColumns                   = []string{"ID", "Image(s)", "Host", "Labels", "Status"}
	replicationControllerColumns = []string{"ID", "Image(s)", "Selector", "Replicas"}
	serviceColumns               = []string{"ID", "Labels", "Selector", "Port"}
	minionColumns                = []string{"Minion identifier"}
	statusColumns                = []string{"Status"}

	// Ours: v0.4 had no table for endpoints (kubecfg could not read
	// them); the guestbook walkthrough shows them, so they get one.
	endpointsColumns = []string{"ID", "Endpoints"}
)

func (h *HumanReadablePrinter) addDefaultHandlers() {
	h.Handler(podColumns, printPod)
	h.Handler(podColumns, printPodList)
	h.Handler(replicationControllerColumns, printReplicationController)
	h.Handler(replicationControllerColumns, printReplicationControllerList)
	h.Handler(serviceColumns, printService)
	h.Handler(serviceColumns, printServiceList)
	h.Handler(minionColumns, printMinion)
	h.Handler(minionColumns, printMinionList)
	h.Handler(statusColumns, printStatus)
	h.Handler(endpointsColumns, printEndpoints)
	h.Handler(endpointsColumns, printEndpointsList)
}

// cell makes a table cell of s: every control or formatting character is
// written as its Go escape, so a value cannot add a column (tab), a row
// (newline) or a terminal sequence to the table.
//
// Ours: v0.4 printed values as stored; a label or image holding "\n" and
// a forged row showed up in every `kubecfg list`.
func cell(s string) string {
	return EscapeControl(s)
}

// EscapeControl returns s with every control or formatting character
// (newline, tab, escape, bidirectional override) written as its Go escape,
// \n or \x1b or \u202e, and everything else unchanged.
func EscapeControl(s string) string {
	if strings.IndexFunc(s, isControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError
}

func printHeader(columnNames []string, w io.Writer) error {
	if _, err := fmt.Fprintf(w, "%s\n", strings.Join(columnNames, "\t")); err != nil {
		return err
	}
	dashes := make([]string, len(columnNames))
	for i := range dashes {
		dashes[i] = "----------"
	}
	_, err := fmt.Fprintf(w, "%s\n", strings.Join(dashes, "\t"))
	return err
}

func makeImageList(manifest api.ContainerManifest) string {
	images := make([]string, 0, len(manifest.Containers))
	for _, container := range manifest.Containers {
		images = append(images, container.Image)
	}
	return strings.Join(images, ",")
}

// podHostString is "host/hostIP", or <unassigned> before scheduling.
func podHostString(host, ip string) string {
	if host == "" && ip == "" {
		return "<unassigned>"
	}
	return host + "/" + ip
}

func printPod(pod *api.Pod, w io.Writer) error {
	_, err := fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n",
		cell(pod.ID), cell(makeImageList(pod.DesiredState.Manifest)),
		cell(podHostString(pod.CurrentState.Host, pod.CurrentState.HostIP)),
		cell(labels.Set(pod.Labels).String()), cell(string(pod.CurrentState.Status)))
	return err
}

func printPodList(list *api.PodList, w io.Writer) error {
	for i := range list.Items {
		if err := printPod(&list.Items[i], w); err != nil {
			return err
		}
	}
	return nil
}

func printReplicationController(ctrl *api.ReplicationController, w io.Writer) error {
	_, err := fmt.Fprintf(w, "%s\t%s\t%s\t%d\n",
		cell(ctrl.ID), cell(makeImageList(ctrl.DesiredState.PodTemplate.DesiredState.Manifest)),
		cell(labels.Set(ctrl.DesiredState.ReplicaSelector).String()), ctrl.DesiredState.Replicas)
	return err
}

func printReplicationControllerList(list *api.ReplicationControllerList, w io.Writer) error {
	for i := range list.Items {
		if err := printReplicationController(&list.Items[i], w); err != nil {
			return err
		}
	}
	return nil
}

func printService(svc *api.Service, w io.Writer) error {
	_, err := fmt.Fprintf(w, "%s\t%s\t%s\t%d\n", cell(svc.ID), cell(labels.Set(svc.Labels).String()),
		cell(labels.Set(svc.Selector).String()), svc.Port)
	return err
}

func printServiceList(list *api.ServiceList, w io.Writer) error {
	for i := range list.Items {
		if err := printService(&list.Items[i], w); err != nil {
			return err
		}
	}
	return nil
}

func printMinion(minion *api.Minion, w io.Writer) error {
	_, err := fmt.Fprintf(w, "%s\n", cell(minion.ID))
	return err
}

// printMinionList prints items, or the deprecated minions array when a
// server filled only that one (v1beta1 sent both).
func printMinionList(list *api.MinionList, w io.Writer) error {
	items := list.Items
	if len(items) == 0 {
		items = list.Minions
	}
	for i := range items {
		if err := printMinion(&items[i], w); err != nil {
			return err
		}
	}
	return nil
}

func printStatus(status *api.Status, w io.Writer) error {
	_, err := fmt.Fprintf(w, "%s\n", cell(string(status.Status)))
	return err
}

func printEndpoints(endpoints *api.Endpoints, w io.Writer) error {
	_, err := fmt.Fprintf(w, "%s\t%s\n", cell(endpoints.ID), cell(strings.Join(endpoints.Endpoints, ",")))
	return err
}

func printEndpointsList(list *api.EndpointsList, w io.Writer) error {
	for i := range list.Items {
		if err := printEndpoints(&list.Items[i], w); err != nil {
			return err
		}
	}
	return nil
}

// Print decodes a JSON body that names its kind and prints it as a table.
func (h *HumanReadablePrinter) Print(data []byte, w io.Writer) error {
	obj, err := api.Decode(data)
	if err != nil {
		return err
	}
	return h.PrintObj(obj, w)
}

// PrintObj prints obj as a table: tabwriter minwidth 20, tabwidth 5,
// padding 3, padded with spaces, as 2014 did.
func (h *HumanReadablePrinter) PrintObj(obj api.Object, output io.Writer) error {
	handler := h.handlerMap[reflect.TypeOf(obj)]
	if handler == nil {
		return fmt.Errorf("cannot print an object of type %T as a table", obj)
	}
	w := tabwriter.NewWriter(output, 20, 5, 3, ' ', 0)
	if err := printHeader(handler.columns, w); err != nil {
		return err
	}
	result := handler.printFunc.Call([]reflect.Value{reflect.ValueOf(obj), reflect.ValueOf(w)})[0]
	if !result.IsNil() {
		return result.Interface().(error)
	}
	return w.Flush()
}

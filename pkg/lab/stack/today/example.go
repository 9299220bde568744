package today

// The 2014 examples on today's apiserver: their v1beta1 JSON, converted
// to v1 by pkg/modern/conversion, the modern build's client boundary.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/modern/conversion"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// CreateExample creates in namespace ns every object in the *.json files
// of dir, 2014 objects (pods, replication controllers, services), in file
// name order; an object that already exists is left as it is. It returns
// what it created or found, "<kind>/<name>".
//
// Each object is converted to v1 as the modern build converts it, with two
// differences, both because today's apiserver refuses otherwise or would
// keep what only our apiserver reads: a name is lower-cased (v1 names are
// DNS names: frontendController becomes frontendcontroller), and the
// conversion's own annotations, which carry v1beta1 state for the way
// back to our apiserver, are dropped.
func CreateExample(ctx context.Context, c kubernetes.Interface, ns, dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no *.json files in %s", dir)
	}
	sort.Strings(files)
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return out, err
		}
		obj, err := api.Decode(data)
		if err != nil {
			return out, fmt.Errorf("%s: %v", f, err)
		}
		name, err := createV1(ctx, c, ns, obj)
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return out, fmt.Errorf("%s: %v", f, err)
		}
		out = append(out, name)
	}
	return out, nil
}

// createV1 converts one 2014 object and creates it.
func createV1(ctx context.Context, c kubernetes.Interface, ns string, obj api.Object) (string, error) {
	opts := metav1.CreateOptions{}
	switch o := obj.(type) {
	case *api.Pod:
		pod := conversion.PodToV1(o)
		toV1Meta(&pod.ObjectMeta, ns)
		_, err := c.CoreV1().Pods(ns).Create(ctx, pod, opts)
		return "Pod/" + pod.Name, err
	case *api.ReplicationController:
		rc := ControllerV1(o, ns)
		_, err := c.CoreV1().ReplicationControllers(ns).Create(ctx, rc, opts)
		return "ReplicationController/" + rc.Name, err
	case *api.Service:
		svc := conversion.ServiceToV1(o)
		toV1Meta(&svc.ObjectMeta, ns)
		_, err := c.CoreV1().Services(ns).Create(ctx, svc, opts)
		return "Service/" + svc.Name, err
	}
	return "", fmt.Errorf("cannot create a %s", api.KindOf(obj))
}

// ControllerV1 converts a 2014 replication controller to the v1 object
// CreateExample creates for it in namespace ns.
func ControllerV1(o *api.ReplicationController, ns string) *v1.ReplicationController {
	rc := conversion.ReplicationControllerToV1(o)
	toV1Meta(&rc.ObjectMeta, ns)
	rc.Status = v1.ReplicationControllerStatus{}
	if rc.Spec.Template != nil {
		dropConversionAnnotations(&rc.Spec.Template.ObjectMeta)
	}
	return rc
}

// toV1Meta makes a converted object's header one today's apiserver takes
// for a new object.
func toV1Meta(m *metav1.ObjectMeta, ns string) {
	m.Name = strings.ToLower(m.Name)
	m.Namespace = ns
	m.ResourceVersion = ""
	dropConversionAnnotations(m)
}

func dropConversionAnnotations(m *metav1.ObjectMeta) {
	for k := range m.Annotations {
		if strings.HasPrefix(k, conversion.LegacyAnnotationPrefix) {
			delete(m.Annotations, k)
		}
	}
	if len(m.Annotations) == 0 {
		m.Annotations = nil
	}
}

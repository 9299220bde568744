package kubecfg

// Follows kubernetes/kubernetes pkg/kubecfg/kubecfg.go as of v0.4 (October
// 2014): the replication controller verbs, each a short sequence of client
// calls, and the auth file that kubecfg read for https masters.
//
// Ours: the verbs that print (resize, stop, run) and the auth prompt take
// the writer to print to, where v0.4 wrote to os.Stdout, so that tests and
// cmd/kubecfg's run function can capture the output.

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/util"
)

// GetServerVersion reads the apiserver's version.
func GetServerVersion(c client.VersionInterface) (*client.VersionInfo, error) {
	info, err := c.ServerVersion()
	if err != nil {
		return nil, fmt.Errorf("Got error: %v", err)
	}
	return info, nil
}

// AuthInfo is the content of the -auth file: basic auth for an https master.
//
// Ours: v0.4's file could also name TLS files and an insecure switch; this
// port's client speaks TLS with the system roots only.
type AuthInfo struct {
	User     string
	Password string
}

func promptForString(field string, r io.Reader, w io.Writer) string {
	fmt.Fprintf(w, "Please enter %s: ", field)
	var result string
	fmt.Fscan(r, &result)
	return result
}

// LoadAuthInfo reads the auth file at path. When there is none it asks for
// a user name and password on r and w and writes them there, mode 0600.
func LoadAuthInfo(path string, r io.Reader, w io.Writer) (*AuthInfo, error) {
	var auth AuthInfo
	if _, err := os.Stat(path); os.IsNotExist(err) {
		auth.User = promptForString("Username", r, w)
		auth.Password = promptForString("Password", r, w)
		data, err := json.Marshal(auth)
		if err != nil {
			return &auth, err
		}
		return &auth, os.WriteFile(path, data, 0o600)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &auth); err != nil {
		return nil, fmt.Errorf("auth file %s: %v", path, err)
	}
	return &auth, nil
}

// How often and how long rollingupdate checks that the controller has put
// back as many pods as there were. Tests shorten them.
var (
	rollingUpdatePollInterval = 5 * time.Second
	rollingUpdateTimeout      = 300 * time.Second
)

// Update performs a rolling update of the controller name: optionally set
// the first container's image of the template, then delete the matching
// pods one by one, updatePeriod apart, and let the controller recreate
// them (pulling the new image). It then waits until the pod count is back.
// 2014 had no real rolling update: a pod deleted before its replacement
// runs is capacity lost, and nothing stops if the new image fails.
//
// Ours: v0.4 printed nothing for the whole run, minutes with the default
// -u of 60 s per pod; each step is reported on out as it happens.
func Update(ctx api.Context, name string, c client.Interface, updatePeriod time.Duration, imageName string, out io.Writer) error {
	controller, err := c.GetReplicationController(ctx, name)
	if err != nil {
		return err
	}

	if len(imageName) != 0 {
		containers := controller.DesiredState.PodTemplate.DesiredState.Manifest.Containers
		// Ours: v0.4 indexed the first container unchecked and panicked
		// on a template without one.
		if len(containers) == 0 {
			return fmt.Errorf("controller %q has no container to give image %q", name, imageName)
		}
		containers[0].Image = imageName
		controller, err = c.UpdateReplicationController(ctx, controller)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: template image set to %s\n", name, imageName)
	}

	s := labels.Set(controller.DesiredState.ReplicaSelector).AsSelector()
	podList, err := c.ListPods(ctx, s)
	if err != nil {
		return err
	}
	expected := len(podList.Items)
	if expected == 0 {
		fmt.Fprintf(out, "%s: no pods match %s; nothing to update\n", name, s)
		return nil
	}
	fmt.Fprintf(out, "%s: deleting its %d pods one by one, %v apart; the controller replaces each\n", name, expected, updatePeriod)
	for i, pod := range podList.Items {
		if err := c.DeletePod(ctx, pod.ID); err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: deleted pod %s (%d of %d)\n", name, pod.ID, i+1, expected)
		time.Sleep(updatePeriod)
	}
	fmt.Fprintf(out, "%s: waiting until %d pods match again\n", name, expected)
	last := -1
	err = poll(rollingUpdatePollInterval, rollingUpdateTimeout, func() (bool, error) {
		podList, err := c.ListPods(ctx, s)
		if err != nil {
			return false, err
		}
		if n := len(podList.Items); n != last && n != expected {
			fmt.Fprintf(out, "%s: %d of %d pods\n", name, n, expected)
			last = n
		}
		return len(podList.Items) == expected, nil
	})
	if err == nil {
		fmt.Fprintf(out, "%s: %d of %d pods again; rolling update done\n", name, expected, expected)
	}
	return err
}

// poll checks condition every interval, the first time after one interval,
// until it holds, fails, or timeout passes (as v0.4's wait.Poll did).
func poll(interval, timeout time.Duration, condition func() (bool, error)) error {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		select {
		case <-tick.C:
		case <-deadline.C:
			ok, err := condition()
			if err != nil || ok {
				return err
			}
			return fmt.Errorf("timed out waiting for the condition")
		}
		ok, err := condition()
		if err != nil || ok {
			return err
		}
	}
}

// StopController sets the replicas of the controller name to zero; the
// controller manager then deletes its pods.
func StopController(ctx api.Context, name string, c client.Interface, out io.Writer) error {
	return ResizeController(ctx, name, 0, c, out)
}

// resizeAttempts bounds how often ResizeController reads and writes again
// after a conflict.
const resizeAttempts = 5

// ResizeController sets the replicas of the controller name and prints
// what the server stored, as YAML. It reads first, to send back the
// resourceVersion; a concurrent change makes the write fail with a
// conflict rather than overwrite it.
//
// Ours: on a conflict it reads and writes again, up to resizeAttempts
// times. v0.4 failed at once, which was rare in 2014, when nothing else
// wrote a controller; today's manager writes the controller's status as
// its pods come and go, so a resize or stop under DESIGN=modern often
// lost that race.
func ResizeController(ctx api.Context, name string, replicas int, c client.Interface, out io.Writer) error {
	var err error
	for attempt := 0; attempt < resizeAttempts; attempt++ {
		var controller *api.ReplicationController
		controller, err = c.GetReplicationController(ctx, name)
		if err != nil {
			return err
		}
		controller.DesiredState.Replicas = replicas
		var controllerOut *api.ReplicationController
		controllerOut, err = c.UpdateReplicationController(ctx, controller)
		if err == nil {
			return printYAML(controllerOut, out)
		}
		if !apierrors.IsConflict(err) {
			return err
		}
	}
	return err
}

func printYAML(obj interface{}, out io.Writer) error {
	data, err := MarshalYAML(obj)
	if err != nil {
		return err
	}
	_, err = out.Write(data)
	return err
}

// portsFromString reads a port spec, "<host>:<container>,<container>,...".
// Any malformed part fails the whole spec (v0.2 skipped such parts).
func portsFromString(spec string) ([]api.Port, error) {
	if spec == "" {
		return []api.Port{}, nil
	}
	var result []api.Port
	for _, part := range strings.Split(spec, ",") {
		pieces := strings.Split(part, ":")
		if len(pieces) < 1 || len(pieces) > 2 {
			return nil, fmt.Errorf("Bad port spec: %s", part)
		}
		host, container := 0, 0
		var err error
		if len(pieces) == 1 {
			if container, err = strconv.Atoi(pieces[0]); err != nil {
				return nil, fmt.Errorf("Container port is not integer: %q", pieces[0])
			}
		} else {
			if host, err = strconv.Atoi(pieces[0]); err != nil {
				return nil, fmt.Errorf("Host port is not integer: %q", pieces[0])
			}
			if container, err = strconv.Atoi(pieces[1]); err != nil {
				return nil, fmt.Errorf("Container port is not integer: %q", pieces[1])
			}
		}
		// Ours: v0.4 returned no ports and no error here (its err was nil
		// at this point), silently dropping the whole spec.
		if container < 1 {
			return nil, fmt.Errorf("Container port is not valid: %d", container)
		}
		result = append(result, api.Port{ContainerPort: container, HostPort: host})
	}
	return result, nil
}

// RunController creates a controller name running replicas copies of one
// container of image, and with servicePort > 0 a service in front of it;
// it prints what the server stored, as YAML.
//
// The controller, its pods and the service all carry simpleService=<name>,
// so the service's selector finds the pods. (v0.2 labelled the pods
// replicationController=<name> but gave the service the selector
// name=<name>, which matched nothing; renamed in September 2014, before
// v0.4.)
func RunController(ctx api.Context, image, name string, replicas int, c client.Interface, portSpec string, servicePort int, out io.Writer) error {
	if servicePort > 0 && !util.IsDNSLabel(name) {
		return fmt.Errorf("Service creation requested, but an invalid name for a service was provided (%s). Service names must be valid DNS labels.", name)
	}
	ports, err := portsFromString(portSpec)
	if err != nil {
		return err
	}
	controller := &api.ReplicationController{
		TypeMeta: api.TypeMeta{ID: name},
		DesiredState: api.ReplicationControllerState{
			Replicas:        replicas,
			ReplicaSelector: map[string]string{"simpleService": name},
			PodTemplate: api.PodTemplate{
				DesiredState: api.PodState{
					Manifest: api.ContainerManifest{
						Version: "v1beta2",
						Containers: []api.Container{{
							Name:  strings.ToLower(name),
							Image: image,
							Ports: ports,
						}},
					},
				},
				Labels: map[string]string{"simpleService": name},
			},
		},
	}
	controllerOut, err := c.CreateReplicationController(ctx, controller)
	if err != nil {
		return err
	}
	if err := printYAML(controllerOut, out); err != nil {
		return err
	}
	if servicePort > 0 {
		svc, err := createService(ctx, name, servicePort, c)
		if err != nil {
			return err
		}
		return printYAML(svc, out)
	}
	return nil
}

func createService(ctx api.Context, name string, port int, c client.Interface) (*api.Service, error) {
	svc := &api.Service{
		TypeMeta: api.TypeMeta{ID: name},
		Port:     port,
		Labels:   map[string]string{"simpleService": name},
		Selector: map[string]string{"simpleService": name},
	}
	return c.CreateService(ctx, svc)
}

// DeleteController deletes the controller name, which must have been
// stopped first: deleting a controller leaves its pods running, unowned.
func DeleteController(ctx api.Context, name string, c client.Interface) error {
	controller, err := c.GetReplicationController(ctx, name)
	if err != nil {
		return err
	}
	if controller.DesiredState.Replicas != 0 {
		return fmt.Errorf("controller has non-zero replicas (%d), please stop it first", controller.DesiredState.Replicas)
	}
	return c.DeleteReplicationController(ctx, name)
}

package kubecfg

import (
	"os"

	"github.com/kube-rewind/kube-rewind/pkg/api"
)

// The table `kubecfg list replicationControllers` printed in 2014.
func ExampleHumanReadablePrinter() {
	list := &api.ReplicationControllerList{Items: []api.ReplicationController{{
		TypeMeta: api.TypeMeta{ID: "nginxController"},
		DesiredState: api.ReplicationControllerState{
			Replicas:        2,
			ReplicaSelector: map[string]string{"name": "nginx"},
			PodTemplate: api.PodTemplate{DesiredState: api.PodState{Manifest: api.ContainerManifest{
				Containers: []api.Container{{Image: "dockerfile/nginx"}},
			}}},
		},
	}}}
	NewHumanReadablePrinter().PrintObj(list, os.Stdout)
	// Output:
	// ID                  Image(s)            Selector            Replicas
	// ----------          ----------          ----------          ----------
	// nginxController     dockerfile/nginx    name=nginx          2
}

//go:build !modern

package service

// Follows kubernetes/kubernetes pkg/service/endpoints_controller_test.go as
// of v0.4 (October 2014).

import (
	"fmt"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
)

// noEndpoints answers every endpoints GET with a 404, as the apiserver does
// before the first sync of a service.
type noEndpoints struct{ *client.Fake }

func (c noEndpoints) GetEndpoints(ctx api.Context, id string) (*api.Endpoints, error) {
	c.Fake.GetEndpoints(ctx, id)
	return nil, errors.NewNotFound("endpoints", id)
}

func newPodList(count int) api.PodList {
	pods := []api.Pod{}
	for i := 0; i < count; i++ {
		pods = append(pods, api.Pod{
			TypeMeta: api.TypeMeta{ID: fmt.Sprintf("pod%d", i)},
			DesiredState: api.PodState{Manifest: api.ContainerManifest{
				Containers: []api.Container{{Ports: []api.Port{{ContainerPort: 8080}}}},
			}},
			CurrentState: api.PodState{PodIP: fmt.Sprintf("1.2.3.%d", 4+i)},
		})
	}
	return api.PodList{Items: pods}
}

func serviceList() api.ServiceList {
	return api.ServiceList{Items: []api.Service{{
		TypeMeta: api.TypeMeta{ID: "foo", Namespace: api.NamespaceDefault},
		Selector: map[string]string{"foo": "bar"},
	}}}
}

func actionNames(c *client.Fake) []string {
	var out []string
	for _, a := range c.Actions() {
		out = append(out, a.Action)
	}
	return out
}

func TestNoServicesMeansNoErrorAndNoWrites(t *testing.T) {
	fake := &client.Fake{}
	if err := NewEndpointController(fake).SyncServiceEndpoints(); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(actionNames(fake)); got != "[list-services]" {
		t.Errorf("actions %s", got)
	}
}

func TestAFailedServiceListIsReturned(t *testing.T) {
	fake := &client.Fake{Err: fmt.Errorf("apiserver down")}
	if err := NewEndpointController(fake).SyncServiceEndpoints(); err == nil {
		t.Error("no error")
	}
}

func TestAbsentEndpointsAreCreatedFromPodIPAndPort(t *testing.T) {
	fake := &client.Fake{Services: serviceList(), Pods: newPodList(1)}
	if err := NewEndpointController(noEndpoints{fake}).SyncServiceEndpoints(); err != nil {
		t.Fatal(err)
	}
	actions := fake.Actions()
	if got := fmt.Sprint(actionNames(fake)); got != "[list-services list-pods get-endpoints create-endpoints]" {
		t.Fatalf("actions %s", got)
	}
	created := actions[3].Value.(*api.Endpoints)
	if created.ID != "foo" || fmt.Sprint(created.Endpoints) != "[1.2.3.4:8080]" {
		t.Errorf("created %+v", created)
	}
}

func TestChangedEndpointsAreUpdatedKeepingTheirResourceVersion(t *testing.T) {
	fake := &client.Fake{Services: serviceList(), Pods: newPodList(1),
		Endpoints: api.EndpointsList{Items: []api.Endpoints{{
			TypeMeta:  api.TypeMeta{ID: "foo", ResourceVersion: 1},
			Endpoints: []string{"6.7.8.9:1000"},
		}}},
	}
	if err := NewEndpointController(fake).SyncServiceEndpoints(); err != nil {
		t.Fatal(err)
	}
	actions := fake.Actions()
	if got := fmt.Sprint(actionNames(fake)); got != "[list-services list-pods get-endpoints update-endpoints]" {
		t.Fatalf("actions %s", got)
	}
	updated := actions[3].Value.(*api.Endpoints)
	if updated.ResourceVersion != 1 || fmt.Sprint(updated.Endpoints) != "[1.2.3.4:8080]" {
		t.Errorf("updated %+v", updated)
	}
}

func TestUnchangedEndpointsAreNotWritten(t *testing.T) {
	fake := &client.Fake{Services: serviceList(), Pods: newPodList(2),
		Endpoints: api.EndpointsList{Items: []api.Endpoints{{
			TypeMeta:  api.TypeMeta{ID: "foo", ResourceVersion: 1},
			Endpoints: []string{"1.2.3.5:8080", "1.2.3.4:8080"},
		}}},
	}
	if err := NewEndpointController(fake).SyncServiceEndpoints(); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(actionNames(fake)); got != "[list-services list-pods get-endpoints]" {
		t.Errorf("actions %s", got)
	}
}

func TestPodsWithoutAnIPAreLeftOut(t *testing.T) {
	pods := newPodList(2)
	pods.Items[0].CurrentState.PodIP = ""
	fake := &client.Fake{Services: serviceList(), Pods: pods}
	NewEndpointController(noEndpoints{fake}).SyncServiceEndpoints()
	created := fake.Actions()[3].Value.(*api.Endpoints)
	if fmt.Sprint(created.Endpoints) != "[1.2.3.5:8080]" {
		t.Errorf("endpoints %v, want only the pod with an IP", created.Endpoints)
	}
}

package tools

import (
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	watchjson "github.com/kube-rewind/kube-rewind/pkg/watch/json"
)

// TestAnObjectThatWouldNotFitAWatchEventIsNeverStored writes a pod whose
// annotation is small as a body but six times larger once encoded. Every
// way of writing must refuse it with a 413 and store nothing, and the
// limit must leave room for the watch event around the largest object.
func TestAnObjectThatWouldNotFitAWatchEventIsNeverStored(t *testing.T) {
	if MaxObjectBytes+4096 > watchjson.MaxEventBytes {
		t.Fatalf("MaxObjectBytes %d leaves no room in a watch event of %d", MaxObjectBytes, watchjson.MaxEventBytes)
	}
	fake := NewFakeEtcdClient(t)
	fake.ExpectNotFoundGet("/pods/big")
	helper := EtcdHelper{fake}
	big := func() *api.Pod {
		pod := testPod("big")
		pod.Annotations = map[string]string{"x": strings.Repeat("<", MaxObjectBytes/6+1)}
		return pod
	}
	writes := map[string]error{
		"create": helper.CreateObj("/pods/big", big()),
		"set":    helper.SetObj("/pods/big", big()),
		"atomic": helper.AtomicUpdate("/pods/big", &api.Pod{}, func(api.Object) (api.Object, error) { return big(), nil }),
	}
	for name, err := range writes {
		if apierrors.CodeOf(err) != 413 || !strings.Contains(err.Error(), "once encoded") {
			t.Errorf("%s: got %v, want a 413 saying how large the object is encoded", name, err)
		}
	}
	if _, ok := fake.Data["/pods/big"]; ok {
		t.Errorf("the object was stored")
	}
	small := big()
	small.Annotations["x"] = strings.Repeat("<", MaxObjectBytes/6-1000)
	if err := helper.CreateObj("/pods/big", small); err != nil {
		t.Errorf("an object just under the limit: %v", err)
	}
}

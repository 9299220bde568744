package apiserver

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/util"
)

// TestWriteListWritesWhatWriteJSONWrites compares the two ways of writing
// a list, byte for byte, for lists short and long, with escapes, maps,
// times and an items field that is omitted when empty.
func TestWriteListWritesWhatWriteJSONWrites(t *testing.T) {
	pods := func(n int) *api.PodList {
		list := &api.PodList{TypeMeta: api.TypeMeta{SelfLink: "/api/v1beta1/pods", ResourceVersion: 42}}
		for i := 0; i < n; i++ {
			pod := api.Pod{TypeMeta: api.TypeMeta{ID: fmt.Sprintf("pod-%d", i), ResourceVersion: uint64(i),
				CreationTimestamp: util.Time{Time: time.Date(2014, 10, 1, 0, 0, i, 0, time.UTC)}},
				Labels: map[string]string{"name": "<web & db>", "i": fmt.Sprint(i)}}
			pod.DesiredState.Manifest.Containers = []api.Container{{Name: "c", Image: "img\u2028"}}
			pod.CurrentState.Status = api.PodRunning
			list.Items = append(list.Items, pod)
		}
		return list
	}
	manifests := &api.ContainerManifestList{}
	for i := 0; i < 2*streamListMin; i++ {
		manifests.Items = append(manifests.Items, api.ContainerManifest{ID: fmt.Sprint(i)})
	}
	for _, list := range []api.Object{pods(0), pods(3), pods(streamListMin), pods(1000), manifests} {
		whole, streamed := httptest.NewRecorder(), httptest.NewRecorder()
		writeJSON(whole, 200, list)
		writeList(streamed, list)
		if !bytes.Equal(whole.Body.Bytes(), streamed.Body.Bytes()) || whole.Code != streamed.Code ||
			whole.Header().Get("Content-Type") != streamed.Header().Get("Content-Type") {
			t.Errorf("%T: streamed %d %q, whole %d %q", list, streamed.Code, streamed.Body.String(), whole.Code, whole.Body.String())
		}
	}
}

package client

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
)

func TestWatchStreamsDecodedEvents(t *testing.T) {
	s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.Write([]byte(`{"type":"ADDED","object":{"kind":"ReplicationController","apiVersion":"v1beta1","id":"a","resourceVersion":3,"creationTimestamp":null}}` + "\n"))
		w.Write([]byte(`{"type":"DELETED","object":{"kind":"ReplicationController","apiVersion":"v1beta1","id":"a","resourceVersion":4,"creationTimestamp":null}}` + "\n"))
	})
	w, err := newTestClient(t, s, nil).WatchReplicationControllers(api.NewDefaultContext(), nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	var got []string
	for event := range w.ResultChan() {
		rc := event.Object.(*api.ReplicationController)
		got = append(got, string(event.Type)+" "+rc.ID)
	}
	if strings.Join(got, ",") != "ADDED a,DELETED a" {
		t.Errorf("got %v", got)
	}
}

func TestWatchRefusedWith410IsGone(t *testing.T) {
	s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
		writeObject(t, w, http.StatusGone, apierrorsStatus(apierrors.NewGone("resourceVersion 3 is too old")))
	})
	w, err := newTestClient(t, s, nil).WatchPods(api.NewDefaultContext(), nil, nil, 3)
	if w != nil || !apierrors.IsGone(err) {
		t.Errorf("want IsGone, got %v, %#v", w, err)
	}
}

func TestWatchRefusedWithPlainTextNamesTheCode(t *testing.T) {
	s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.NotFound(w, r)
	})
	_, err := newTestClient(t, s, nil).WatchServices(api.NewDefaultContext(), nil, nil, 0)
	if err == nil || !strings.Contains(err.Error(), "404 Not Found") {
		t.Errorf("got %v", err)
	}
}

func TestWatchStopsWhenTheContextIsCancelled(t *testing.T) {
	s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	ctx, cancel := context.WithCancel(context.Background())
	w, err := newTestClient(t, s, nil).WatchPods(ctx, nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case _, open := <-w.ResultChan():
		if open {
			t.Error("want the channel closed")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the watch did not end after cancel")
	}
}

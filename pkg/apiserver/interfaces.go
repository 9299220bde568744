package apiserver

// Follows kubernetes/kubernetes pkg/apiserver/interfaces.go as of v0.4
// (October 2014): what a resource's storage must offer to be served.

import (
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// RESTStorage is the storage of one resource. Create, Update and Delete do
// their work asynchronously and deliver the result (the object, or an
// *api.Status for an error) on the returned channel; see MakeAsync.
type RESTStorage interface {
	// New returns an empty object to decode a request body into.
	New() api.Object
	// List returns the objects whose labels match label and whose fields
	// match field.
	List(ctx api.Context, label, field labels.Selector) (api.Object, error)
	// Get returns one object; errors.IsNotFound(err) when it does not exist.
	Get(ctx api.Context, id string) (api.Object, error)
	Delete(ctx api.Context, id string) (<-chan api.Object, error)
	Create(ctx api.Context, obj api.Object) (<-chan api.Object, error)
	Update(ctx api.Context, obj api.Object) (<-chan api.Object, error)
}

// ResourceWatcher is implemented by storages whose resource can be watched.
// Events are those strictly after resourceVersion; 0 means "the current
// state, then every change".
type ResourceWatcher interface {
	Watch(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error)
}

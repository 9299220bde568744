package api

// Follows kubernetes/kubernetes pkg/api/context.go as of v0.4 (October 2014):
// every client and registry call carries a Context naming its namespace.

import stdcontext "context"

// Context carries the namespace (and, in this port, cancellation) of a call.
// It is the standard library's context, as v0.4's was golang.org's.
type Context = stdcontext.Context

// NamespaceDefault is where objects live when nobody says otherwise.
const NamespaceDefault = "default"

// NamespaceAll selects every namespace.
const NamespaceAll = ""

type namespaceKey struct{}

// NewContext returns an empty context: all namespaces.
func NewContext() Context {
	return stdcontext.TODO()
}

// NewDefaultContext returns a context for the default namespace.
func NewDefaultContext() Context {
	return WithNamespace(NewContext(), NamespaceDefault)
}

// WithNamespace returns a copy of parent that names namespace.
func WithNamespace(parent Context, namespace string) Context {
	return stdcontext.WithValue(parent, namespaceKey{}, namespace)
}

// NamespaceFrom returns the namespace of ctx, if any.
func NamespaceFrom(ctx Context) (string, bool) {
	namespace, ok := ctx.Value(namespaceKey{}).(string)
	return namespace, ok
}

// NamespaceValue returns the namespace of ctx, or "" when it names none.
func NamespaceValue(ctx Context) string {
	namespace, _ := NamespaceFrom(ctx)
	return namespace
}

// ValidNamespace reports whether the namespace of ctx matches obj's, and
// fills obj's namespace from ctx when obj has none.
func ValidNamespace(ctx Context, obj *TypeMeta) bool {
	namespace, ok := NamespaceFrom(ctx)
	if len(obj.Namespace) == 0 {
		obj.Namespace = namespace
	}
	return ok && namespace == obj.Namespace
}

// Package informers feeds client-go's shared informers from our 2014 client.
// A ListWatch lists and watches one resource through client.Interface and
// hands client-go v1 objects (converted by pkg/modern/conversion); a small
// SharedInformerFactory builds one shared informer per resource, so the
// replication manager and the endpoints controller share one pod cache, as
// kube-controller-manager's controllers have done since 2016
// (kubernetes/kubernetes#23575, #24470).
//
// Ours: upstream generates both from its clientset (k8s.io/client-go/
// informers). Our apiserver speaks v1beta1, so the listers and watchers are
// written by hand against pkg/client, and the factory serves only the four
// resources the controllers read. Its informers satisfy client-go's own
// coreinformers interfaces, so the modern controllers take the same
// arguments as upstream's. Only modern code imports this package.
package informers

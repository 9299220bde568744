// Package kubeclient is the 2014 client.Interface over client-go's
// clientset, so that our port of today's design, whose controllers write
// through the 2014 client, can run against today's kube-apiserver: every
// object crosses between v1beta1 and v1 through pkg/modern/conversion.
//
// Ours: no such client existed; upstream's controllers moved to the
// clientset itself. What today's apiserver cannot hold is lost on the way
// (see conversion), and the conversion's own annotations never reach it.
package kubeclient

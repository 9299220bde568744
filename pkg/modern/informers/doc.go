// Package informers feeds client-go's shared informers from our 2014
// client: a ListWatch per resource over client.Interface, handing out v1
// objects, and a small SharedInformerFactory, so the replication manager
// and the endpoints controller share one pod cache (kubernetes/kubernetes
// #23575, #24470, 2016). Only modern code imports it.
//
// Ours: upstream generates both from its clientset; ours are written by
// hand against pkg/client for the four resources the controllers read,
// and satisfy client-go's coreinformers interfaces, so the modern
// controllers take upstream's arguments.
package informers

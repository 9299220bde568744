//go:build modern

package main

// Ours: -kubeconfig runs our port of today's design against today's
// kube-apiserver, the variant modern-today, so that it stands beside
// upstream's manager on the read path both were made for: its informers
// are client-go's own, listing and watching kube-apiserver directly (its
// watch cache, bookmarks and all), and its writes go through the 2014
// client over client-go's clientset (pkg/modern/kubeclient). Nothing of it
// passes our v1beta1 apiserver. Without -kubeconfig it runs against
// -master's, as always.

import (
	"flag"
	"time"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/modern/informers"
	"github.com/kube-rewind/kube-rewind/pkg/modern/kubeclient"
	clientgoinformers "k8s.io/client-go/informers"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

var kubeconfig = flag.String("kubeconfig", "", "Run against today's kube-apiserver, named by this kubeconfig, through client-go, instead of the v1beta1 apiserver of -master (modern).")

// todayClientset is the clientset of -kubeconfig; nil without it.
var todayClientset kubernetes.Interface

// newClient returns the client the controllers write through: the 2014
// client of -master, or the same interface over -kubeconfig's clientset.
func newClient() client.Interface {
	if *kubeconfig == "" {
		return masterClient("usage: controller-manager -master <master>, or -kubeconfig <file> for today's apiserver")
	}
	cs, err := clientsetFor("controller-manager")
	if err != nil {
		glog.Fatalf("invalid -kubeconfig: %v", err)
	}
	todayClientset = cs
	return kubeclient.New(cs)
}

// clientsetFor is a clientset of -kubeconfig named userAgent, speaking
// protobuf, with the client limits of -kube_api_qps and -kube_api_burst, as
// kube-controller-manager's --kube-api-qps and --kube-api-burst set its
// own (a limit of 0 is none, which client-go spells -1).
func clientsetFor(userAgent string) (kubernetes.Interface, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		return nil, err
	}
	cfg.UserAgent = userAgent
	// Protobuf, as kube-controller-manager's --kube-api-content-type
	// defaults to.
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	cfg.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	// The leader election's lock is an Endpoints object, as in 2015, and
	// today's apiserver warns of v1 Endpoints' deprecation on every
	// renewal; the log would be nothing else.
	cfg.WarningHandler = rest.NoWarnings{}
	cfg.QPS, cfg.Burst = -1, 0
	if qps := wiredQPS(); qps > 0 {
		cfg.QPS, cfg.Burst = float32(qps), *kubeAPIBurst
	}
	return kubernetes.NewForConfig(cfg)
}

// sharedInformers is what the controllers take from an informer factory:
// ours, over the 2014 client, or client-go's own.
type sharedInformers interface {
	Pods() coreinformers.PodInformer
	ReplicationControllers() coreinformers.ReplicationControllerInformer
	Services() coreinformers.ServiceInformer
	Endpoints() coreinformers.EndpointsInformer
	Start(stopCh <-chan struct{})
}

// clientGoInformers is client-go's factory as sharedInformers.
type clientGoInformers struct {
	clientgoinformers.SharedInformerFactory
}

func (f clientGoInformers) Pods() coreinformers.PodInformer { return f.Core().V1().Pods() }
func (f clientGoInformers) ReplicationControllers() coreinformers.ReplicationControllerInformer {
	return f.Core().V1().ReplicationControllers()
}
func (f clientGoInformers) Services() coreinformers.ServiceInformer { return f.Core().V1().Services() }
func (f clientGoInformers) Endpoints() coreinformers.EndpointsInformer {
	return f.Core().V1().Endpoints()
}

// newInformers returns client-go's factory over -kubeconfig's clientset,
// or ours over c.
func newInformers(c client.Interface, resync time.Duration) sharedInformers {
	if todayClientset != nil {
		return clientGoInformers{clientgoinformers.NewSharedInformerFactory(todayClientset, resync)}
	}
	return informers.NewSharedInformerFactory(c, resync)
}

// newElectionClient is a client of its own for the leader election, named
// for the apiserver's per-component request counts.
func newElectionClient() client.Interface {
	if *kubeconfig != "" {
		cs, err := clientsetFor("leader-election")
		if err != nil {
			glog.Fatalf("invalid -kubeconfig: %v", err)
		}
		return kubeclient.New(cs)
	}
	electionConfig := clientConfig()
	electionConfig.UserAgent = "leader-election"
	electionClient, err := client.New(electionConfig)
	if err != nil {
		glog.Fatalf("invalid API configuration: %v", err)
	}
	return electionClient
}

//go:build !modern

package main

// The 2014 wiring, as v0.4's main did it: the endpoints controller under
// util.Forever, the replication manager's Run, and a select that never
// returns. There is no leader election: two controller-managers both act,
// and fight (history: leader-election).

import (
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/controller"
	"github.com/kube-rewind/kube-rewind/pkg/service"
	"github.com/kube-rewind/kube-rewind/pkg/util"
	"github.com/prometheus/client_golang/prometheus"
)

// newClient returns the client of -master.
func newClient() client.Interface {
	return masterClient("usage: controller-manager -master <master>")
}

// clientConfig returns the 2014 client configuration: no rate limit, and
// v0.4's asynchronous operations polled every 2 s.
func clientConfig() *client.Config {
	return &client.Config{Host: *master, UserAgent: "controller-manager"}
}

func run(kubeClient client.Interface, _ *prometheus.Registry) {
	endpoints := service.NewEndpointController(kubeClient)
	go util.Forever(func() { endpoints.SyncServiceEndpoints() }, *endpointsPeriod)

	controllerManager := controller.NewReplicationManager(kubeClient)
	controllerManager.Run(*syncPeriod)

	select {}
}

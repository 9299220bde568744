// Package queuemetrics exports client-go workqueue metrics to Prometheus:
// a workqueue.MetricsProvider whose series carry the queue's name, under
// the names kube-controller-manager uses (workqueue_depth,
// workqueue_adds_total, workqueue_retries_total, ...). Only named queues
// report, so the modern controllers name theirs ("replicationmanager",
// "endpoint").
//
// Ours: upstream registers these through k8s.io/component-base; the modern
// controller-manager registers this provider with its own registry. The
// 2014 build has no queue and never links this package.
package queuemetrics

package today

// KWOK's nodes, and the default service account pods need.

import (
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// NodePrefix starts the name of every node the stack creates.
const NodePrefix = "kwok-node-"

// FakeNodeAnnotation marks a node as KWOK's, as KWOK's own documentation
// has it; with --manage-all-nodes KWOK takes every node anyway.
const FakeNodeAnnotation = "kwok.x-k8s.io/node"

// createNodes creates Config.Nodes nodes, as a kubelet registers its
// node, with the capacity a scheduler needs to place pods, and waits
// until KWOK has made each one Ready.
func (s *Stack) createNodes() error {
	c, err := s.Clientset()
	if err != nil {
		return err
	}
	ctx, cancel := s.context()
	defer cancel()
	capacity := v1.ResourceList{
		v1.ResourceCPU:    resource.MustParse("32"),
		v1.ResourceMemory: resource.MustParse("256Gi"),
		v1.ResourcePods:   *resource.NewQuantity(int64(s.cfg.PodsPerNode), resource.DecimalSI),
	}
	for i := 0; i < s.cfg.Nodes; i++ {
		name := fmt.Sprintf("%s%d", NodePrefix, i)
		node := &v1.Node{
			ObjectMeta: metav1.ObjectMeta{
				Name:        name,
				Annotations: map[string]string{FakeNodeAnnotation: "fake"},
				Labels:      map[string]string{"type": "kwok", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64"},
			},
			Status: v1.NodeStatus{Capacity: capacity, Allocatable: capacity},
		}
		if _, err := c.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating node %s: %v", name, err)
		}
	}
	for {
		nodes, err := c.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		ready := 0
		if err == nil {
			for i := range nodes.Items {
				if NodeReady(&nodes.Items[i]) {
					ready++
				}
			}
			if ready >= s.cfg.Nodes {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("KWOK made %d of %d nodes Ready within %v (last error: %v; its log is in %s)", ready, s.cfg.Nodes, s.cfg.Ready, err, s.cfg.Dir)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// NodeReady reports whether a node's Ready condition is True.
func NodeReady(n *v1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == v1.NodeReady {
			return c.Status == v1.ConditionTrue
		}
	}
	return false
}

// waitForDefaultServiceAccount waits until the default namespace has its
// default service account (see WaitForServiceAccount).
func (s *Stack) waitForDefaultServiceAccount() error {
	return s.WaitForServiceAccount(metav1.NamespaceDefault)
}

// WaitForServiceAccount waits until namespace ns has its default service
// account, without which the apiserver refuses its pods. A controller
// manager's serviceaccount controller makes it; in a stack without one,
// this makes it instead.
func (s *Stack) WaitForServiceAccount(ns string) error {
	c, err := s.Clientset()
	if err != nil {
		return err
	}
	ctx, cancel := s.context()
	defer cancel()
	s.mu.Lock()
	managers := len(s.Managers)
	s.mu.Unlock()
	if managers == 0 {
		sa := &v1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: ns}}
		if _, err := c.CoreV1().ServiceAccounts(ns).Create(ctx, sa, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
		return nil
	}
	for {
		_, err := c.CoreV1().ServiceAccounts(ns).Get(ctx, "default", metav1.GetOptions{})
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("namespace %s has no default service account after %v: %v", ns, s.cfg.Ready, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

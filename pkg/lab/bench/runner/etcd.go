package runner

import (
	"os"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// startEtcdCluster starts an external etcd cluster of members with its
// data under dir; stop kills it and deletes the data.
func startEtcdCluster(dir string, members int) ([]string, func(), error) {
	c, err := stack.StartEtcdCluster(dir, members)
	if err != nil {
		return nil, nil, err
	}
	return c.ClientURLs(), func() {
		c.Close()
		os.RemoveAll(dir)
	}, nil
}

package runner

import (
	"os"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// startEtcdCluster starts an external etcd cluster of members with its
// data under dir, and names the member whose log the laboratory reads;
// stop kills it and deletes the data.
func startEtcdCluster(dir string, members int) ([]string, stack.ReadMember, func(), error) {
	c, err := stack.StartEtcdCluster(dir, members)
	if err != nil {
		return nil, stack.ReadMember{}, nil, err
	}
	return c.ClientURLs(), stack.ReadMemberOf(c), func() {
		c.Close()
		os.RemoveAll(dir)
	}, nil
}

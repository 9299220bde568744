package etcd

import (
	"net/url"
	"path"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api/validation"
	"github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
)

// keyMakers are the key builders of every resource, with the directory
// each key must stay in.
var keyMakers = []struct {
	resource string
	prefix   string
	make     func(string) (string, error)
}{
	{"pods", podsPrefix, makePodKey},
	{"replicationControllers", controllersPrefix, makeControllerKey},
	{"services", servicesPrefix, makeServiceKey},
	{"endpoints", endpointsPrefix, makeServiceEndpointsKey},
	{"minions", minionsPrefix, makeMinionKey},
}

// FuzzIDsBecomeKeysInsideTheirDirectory builds every resource's key from
// an arbitrary id. A key is built exactly when validation.ValidateID
// accepts the id, and then it names one entry directly under the
// resource's directory: path.Clean leaves it alone (go-etcd cleans every
// key it sends), and the URL go-etcd makes of it reads back as the same
// key, so no character of the id changes meaning on the way to etcd.
func FuzzIDsBecomeKeysInsideTheirDirectory(f *testing.F) {
	for _, id := range append(registrytest.HostileIDs(),
		"foo", "nginxController", "a.b", "a..b", "a.", ".a", "a-", "-a", "a_b", "a+b",
		"A", "x.y.z", "123", strings.Repeat("a", 63), strings.Repeat("a", 64), "a%b", "a\\b", "\x00") {
		f.Add(id)
	}
	f.Fuzz(func(t *testing.T, id string) {
		for _, m := range keyMakers {
			key, err := m.make(id)
			valid := len(validation.ValidateID(m.resource, id)) == 0
			if (err == nil) != valid {
				t.Fatalf("%s id %q: key error %v, but ValidateID says valid=%v", m.resource, id, err, valid)
			}
			if err != nil {
				continue
			}
			if clean := path.Clean(key); clean != key {
				t.Fatalf("%s id %q: key %q cleans to %q", m.resource, id, key, clean)
			}
			if path.Dir(key) != m.prefix || path.Base(key) != id {
				t.Fatalf("%s id %q: key %q is not an entry of %s", m.resource, id, key, m.prefix)
			}
			// go-etcd's keyToPath: query-escape, then put the slashes back.
			sent := strings.ReplaceAll(url.QueryEscape(path.Join("keys", key)), "%2F", "/")
			if got, err := url.PathUnescape(sent); err != nil || got != path.Join("keys", key) {
				t.Fatalf("%s id %q: etcd would read key %q as %q (%v)", m.resource, id, key, got, err)
			}
		}
	})
}

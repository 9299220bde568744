package today

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/modern/conversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/clientcmd"
)

// TestTheGuestbookBecomesV1ObjectsTodaysAPIServerTakes: every 2014 object
// of the guestbook is created as a v1 object whose name is a DNS name, in
// the namespace asked for, without the conversion's own annotations, and
// each controller's template carries the labels its selector asks for.
func TestTheGuestbookBecomesV1ObjectsTodaysAPIServerTakes(t *testing.T) {
	c := fake.NewSimpleClientset()
	created, err := CreateExample(context.Background(), c, "guestbook", filepath.Join("..", "..", "..", "..", "examples", "guestbook"))
	if err != nil {
		t.Fatal(err)
	}
	want := "ReplicationController/frontendcontroller, Service/frontend, Service/redismaster, Pod/redis-master, ReplicationController/redisslavecontroller, Service/redisslave"
	if got := strings.Join(created, ", "); got != want {
		t.Errorf("created %s, want %s", got, want)
	}
	var metas []metav1.ObjectMeta
	pods, _ := c.CoreV1().Pods("guestbook").List(context.Background(), metav1.ListOptions{})
	for _, p := range pods.Items {
		metas = append(metas, p.ObjectMeta)
	}
	rcs, _ := c.CoreV1().ReplicationControllers("guestbook").List(context.Background(), metav1.ListOptions{})
	for _, rc := range rcs.Items {
		metas = append(metas, rc.ObjectMeta, rc.Spec.Template.ObjectMeta)
		for k, v := range rc.Spec.Selector {
			if rc.Spec.Template.Labels[k] != v {
				t.Errorf("controller %s selects %s=%s, which its template lacks", rc.Name, k, v)
			}
		}
	}
	services, _ := c.CoreV1().Services("guestbook").List(context.Background(), metav1.ListOptions{})
	for _, s := range services.Items {
		metas = append(metas, s.ObjectMeta)
	}
	if len(metas) != 8 {
		t.Errorf("found %d objects and templates, want 8", len(metas))
	}
	for _, m := range metas {
		if m.Name != "" {
			if errs := validation.IsDNS1123Subdomain(m.Name); len(errs) > 0 {
				t.Errorf("name %q: %v", m.Name, errs)
			}
			if m.Namespace != "guestbook" {
				t.Errorf("%s is in namespace %q", m.Name, m.Namespace)
			}
		}
		for k := range m.Annotations {
			if strings.HasPrefix(k, conversion.LegacyAnnotationPrefix) {
				t.Errorf("%s keeps the conversion's annotation %s", m.Name, k)
			}
		}
	}
}

// TestMissingBinariesAreNamedInOneLineWithHowToBuildThem: the tests skip
// with this line, so it names what is missing and says make today.
func TestMissingBinariesAreNamedInOneLineWithHowToBuildThem(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{Etcd, APIServer, StagesFile} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	line := Missing(dir)
	for _, want := range []string{ControllerManager, Scheduler, KWOK, "make today"} {
		if !strings.Contains(line, want) {
			t.Errorf("%q does not say %s", line, want)
		}
	}
	if strings.Contains(line, "\n") || strings.Contains(line, APIServer+",") {
		t.Errorf("%q is not one line naming only what is missing", line)
	}
	for _, name := range needed {
		os.WriteFile(filepath.Join(dir, name), nil, 0o755)
	}
	if line := Missing(dir); line != "" {
		t.Errorf("with everything there, Missing says %q", line)
	}
}

// TestEachClientGetsATokenAndAKubeconfigTrustingTheStacksAuthority: the
// token file has one line per client, and each kubeconfig reaches the
// server with that client's token and the authority's certificate.
func TestEachClientGetsATokenAndAKubeconfigTrustingTheStacksAuthority(t *testing.T) {
	dir := t.TempDir()
	p, err := newPKI(dir)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p.tokenFile)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != len(clients) {
		t.Fatalf("%d lines in the token file for %d clients", len(lines), len(clients))
	}
	for i, c := range clients {
		if !strings.HasPrefix(lines[i], p.tokens[c.name]+","+c.user+",") {
			t.Errorf("line %d of the token file is %q, not %s's", i, lines[i], c.user)
		}
		path, err := p.writeKubeconfig(c.name, "https://127.0.0.1:6443")
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := clientcmd.BuildConfigFromFlags("", path)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Host != "https://127.0.0.1:6443" || cfg.BearerToken != p.tokens[c.name] || string(cfg.CAData) != string(p.caPEM) {
			t.Errorf("%s's kubeconfig reaches %s with token %q and %d bytes of authority", c.name, cfg.Host, cfg.BearerToken, len(cfg.CAData))
		}
	}
	for _, f := range []string{p.servingCert, p.servingKey, p.saKey, p.saPub} {
		if info, err := os.Stat(f); err != nil || info.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

package today

// The credentials of one run, generated into its scratch directory and
// nowhere else: a serving certificate for 127.0.0.1, the service-account
// key pair, a bearer token per client, and a kubeconfig per client.

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/client-go/util/cert"
	"k8s.io/client-go/util/keyutil"
)

// A client of the apiserver: the user its token authenticates as, and
// the groups that user is in.
type client struct {
	name   string
	user   string
	groups []string
}

// clients are the stack's users. The controller manager and the scheduler
// are the users RBAC's bootstrap roles are bound to, as kubeadm's
// certificates name them; the controller manager asks for a token of a
// service account of its own for each controller
// (--use-service-account-credentials), so each controller has only its
// bootstrap role's rights.
//
// Unlike a real cluster: every client authenticates with a static bearer
// token (--token-auth-file), not a client certificate, and KWOK, which
// stands in for the kubelets, is in system:masters, where a kubelet is a
// system:node user held to its own node by the Node authorizer.
var clients = []client{
	{name: "admin", user: "admin", groups: []string{"system:masters"}},
	{name: ControllerManager, user: "system:kube-controller-manager"},
	{name: Scheduler, user: "system:kube-scheduler"},
	{name: KWOK, user: "kwok", groups: []string{"system:masters"}},
	{name: OurManagerClient, user: OurManagerClient, groups: []string{"system:masters"}},
}

// pki is what one run generated: its credentials in runDir/pki, its
// kubeconfigs in runDir.
type pki struct {
	runDir, dir string
	// servingCert holds the serving certificate and the certificate
	// authority that signed it, which every client trusts; servingKey is
	// the certificate's key.
	servingCert, servingKey string
	// caPEM is servingCert's content.
	caPEM []byte
	// saKey and saPub are the service-account key pair; tokenFile the
	// apiserver's --token-auth-file.
	saKey, saPub, tokenFile string
	// tokens are the bearer tokens, by client name.
	tokens map[string]string
}

// newPKI writes a run's credentials into runDir/pki.
func newPKI(runDir string) (*pki, error) {
	dir := filepath.Join(runDir, "pki")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	p := &pki{
		runDir:      runDir,
		dir:         dir,
		servingCert: filepath.Join(dir, "serving.crt"),
		servingKey:  filepath.Join(dir, "serving.key"),
		saKey:       filepath.Join(dir, "sa.key"),
		saPub:       filepath.Join(dir, "sa.pub"),
		tokenFile:   filepath.Join(dir, "tokens.csv"),
		tokens:      map[string]string{},
	}
	// One certificate serves the apiserver, the controller managers and
	// the scheduler, all on 127.0.0.1: its authority is the one every
	// client and scraper trusts. 10.0.0.1 is the first address of the
	// service range, the in-cluster "kubernetes" service's.
	certPEM, keyPEM, err := cert.GenerateSelfSignedCertKey("127.0.0.1", []net.IP{net.ParseIP("10.0.0.1")}, []string{"localhost", "kubernetes", "kubernetes.default"})
	if err != nil {
		return nil, fmt.Errorf("generating the serving certificate: %v", err)
	}
	p.caPEM = certPEM
	if err := writeFiles(map[string][]byte{p.servingCert: certPEM, p.servingKey: keyPEM}); err != nil {
		return nil, err
	}
	if err := p.writeServiceAccountKeys(); err != nil {
		return nil, err
	}
	var lines []string
	for _, c := range clients {
		token, err := randomToken()
		if err != nil {
			return nil, err
		}
		p.tokens[c.name] = token
		// token,user,uid,"group1,group2"
		lines = append(lines, fmt.Sprintf("%s,%s,%s,%q", token, c.user, c.user, strings.Join(c.groups, ",")))
	}
	return p, writeFiles(map[string][]byte{p.tokenFile: []byte(strings.Join(lines, "\n") + "\n")})
}

// writeServiceAccountKeys writes the RSA pair the apiserver signs and
// checks service-account tokens with.
func (p *pki) writeServiceAccountKeys() error {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	keyPEM, err := keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		return err
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return err
	}
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub})
	return writeFiles(map[string][]byte{p.saKey: keyPEM, p.saPub: pubPEM})
}

// writeKubeconfig writes the kubeconfig of client name, reaching server
// with its token, and returns its path. An https server is trusted by the
// stack's authority.
func (p *pki) writeKubeconfig(name, server string) (string, error) {
	cluster := &clientcmdapi.Cluster{Server: server}
	if strings.HasPrefix(server, "https://") {
		cluster.CertificateAuthorityData = p.caPEM
	}
	cfg := clientcmdapi.Config{
		Clusters:       map[string]*clientcmdapi.Cluster{"today": cluster},
		AuthInfos:      map[string]*clientcmdapi.AuthInfo{name: {Token: p.tokens[name]}},
		Contexts:       map[string]*clientcmdapi.Context{name + "@today": {Cluster: "today", AuthInfo: name}},
		CurrentContext: name + "@today",
	}
	path := filepath.Join(p.runDir, name+".kubeconfig")
	if err := clientcmd.WriteToFile(cfg, path); err != nil {
		return "", err
	}
	return path, nil
}

func randomToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

func writeFiles(files map[string][]byte) error {
	for path, data := range files {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return err
		}
	}
	return nil
}

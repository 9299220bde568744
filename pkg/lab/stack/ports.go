package stack

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
)

// portTakenFormat is how a start says that a component's fixed port is
// held by another process, given the component and the port.
const portTakenFormat = "%s: port %d on 127.0.0.1 is taken"

// portTakenMessage matches every message made from portTakenFormat.
var portTakenMessage = regexp.MustCompile(strings.NewReplacer("%s", `\S+`, "%d", `[0-9]+`).Replace(regexp.QuoteMeta(portTakenFormat)))

// portTakenError is the error of a start whose fixed port is held.
func portTakenError(component string, port int) error {
	return fmt.Errorf(portTakenFormat, component, port)
}

// PortTaken reports whether output, what a command that starts a stack
// printed, says that a port it was handed is held by another process:
// either the stack found the port held before starting the component, or
// the component (or its etcd) failed to listen on it. A caller that picked
// the port with FreePort then picks another and starts again.
func PortTaken(output string) bool {
	return portTakenMessage.MatchString(output) || etcdtest.AddressInUse(output)
}

// StartWithPort starts cfg with flags(port) added to the apiserver's, for
// a free port the apiserver serves something more on (its profiles),
// and picks another port and starts again, up to three times, when the
// apiserver found it taken: another process may take a free port between
// FreePort and the apiserver's listen. It returns the stack and the port.
func StartWithPort(cfg Config, flags func(port int) []string) (*Stack, int, error) {
	base := cfg.APIServerArgs
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		port, err := freePort()
		if err != nil {
			return nil, 0, err
		}
		cfg.APIServerArgs = append(append([]string{}, base...), flags(port)...)
		st, err := Start(cfg)
		if err == nil {
			return st, port, nil
		}
		lastErr = err
		log := ""
		if cfg.Dir != "" && cfg.Output == nil {
			if data, rerr := os.ReadFile(filepath.Join(cfg.Dir, "apiserver.log")); rerr == nil {
				log = string(data)
			}
		}
		if !PortTaken(err.Error()) && !PortTaken(log) {
			break
		}
	}
	return nil, 0, lastErr
}

// freePort is FreePort; a test makes it hand out a port it holds.
var freePort = FreePort

package stack

import (
	"fmt"
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

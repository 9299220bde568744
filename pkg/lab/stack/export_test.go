package stack

import "testing"

// HandOutPorts makes StartWithPort's free ports come from next until the
// test ends.
func HandOutPorts(t testing.TB, next func() (int, error)) {
	saved := freePort
	freePort = next
	t.Cleanup(func() { freePort = saved })
}

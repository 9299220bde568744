package stack

import (
	"sync"
	"syscall"

	"github.com/prometheus/procfs"
)

// wantFiles is the open-file limit the stack asks for: a 2014
// controller-manager creating 100 000 pods opens one connection per pod
// at once, and the apiserver accepts each.
const wantFiles = 1 << 20

var (
	limitOnce sync.Once
	fileLimit uint64
)

// RaiseFileLimit raises this process's open-file limit, which every
// process the stack starts inherits: the soft limit to the hard one, and
// the hard one to 2^20 (at most the kernel's fs.nr_open) where this
// process may. It returns the soft limit now in force (0: unknown).
// Go programs raise their own soft limit to the hard one when they start,
// but hand their children the limit they were started with unless it is
// set explicitly, as here.
func RaiseFileLimit() uint64 {
	limitOnce.Do(func() {
		var l syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
			return
		}
		want := uint64(wantFiles)
		if fs, err := procfs.NewDefaultFS(); err == nil {
			if n, err := fs.SysctlInts("fs.nr_open"); err == nil && len(n) == 1 && n[0] > 0 && uint64(n[0]) < want {
				want = uint64(n[0])
			}
		}
		if l.Max < want {
			raised := syscall.Rlimit{Cur: want, Max: want}
			if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised) == nil {
				l = raised
			}
		}
		if l.Cur < l.Max {
			l.Cur = l.Max
		}
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l) == nil {
			fileLimit = l.Cur
			return
		}
		if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l) == nil {
			fileLimit = l.Cur
		}
	})
	return fileLimit
}

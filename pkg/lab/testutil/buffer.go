package testutil

import (
	"bytes"
	"sync"
)

// Buffer collects output written from several goroutines, such as a
// process's stdout and stderr or a demo's narration, and can be read while
// they write.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

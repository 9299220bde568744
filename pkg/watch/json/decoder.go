package json

// Follows kubernetes/kubernetes pkg/watch/json/decoder.go as of v0.4.

import (
	"bufio"
	"fmt"
	"io"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// MaxEventBytes bounds one line of the stream.
//
// Ours: 2014 read lines without a limit.
const MaxEventBytes = 4 << 20

// Decoder reads events from a stream; it satisfies watch.Decoder.
type Decoder struct {
	r       io.ReadCloser
	scanner *bufio.Scanner
}

// NewDecoder returns a Decoder reading r; Close closes r.
func NewDecoder(r io.ReadCloser) *Decoder {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 0, 64<<10), MaxEventBytes)
	return &Decoder{r: r, scanner: s}
}

// Decode returns the next event, or io.EOF at the end of the stream.
func (d *Decoder) Decode() (watch.EventType, api.Object, error) {
	for d.scanner.Scan() {
		line := d.scanner.Bytes()
		if len(line) == 0 {
			continue
		}
		event, err := decodeLine(line)
		if err != nil {
			return "", nil, err
		}
		return event.Type, event.Object, nil
	}
	if err := d.scanner.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return "", nil, fmt.Errorf("watch event larger than %d bytes", MaxEventBytes)
		}
		return "", nil, err
	}
	return "", nil, io.EOF
}

// Close closes the stream.
func (d *Decoder) Close() {
	d.r.Close()
}

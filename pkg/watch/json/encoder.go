package json

// Follows kubernetes/kubernetes pkg/watch/json/encoder.go as of v0.4.

import (
	"io"

	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// Encoder writes events to a stream, one line each.
type Encoder struct {
	w io.Writer
}

// NewEncoder returns an Encoder writing to w.
func NewEncoder(w io.Writer) *Encoder {
	return &Encoder{w: w}
}

// Encode writes event followed by a newline.
func (e *Encoder) Encode(event *watch.Event) error {
	line, err := Object(event)
	if err != nil {
		return err
	}
	_, err = e.w.Write(append(line, '\n'))
	return err
}

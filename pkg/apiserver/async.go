package apiserver

// Follows kubernetes/kubernetes pkg/apiserver/async.go as of v0.4 (October
// 2014): storage calls run in a goroutine and hand back a channel, so the
// handler can answer "202 working" when they take longer than it waits.

import (
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/util"
)

// WorkFunc does the storage work of one asynchronous call.
type WorkFunc func() (result api.Object, err error)

// MakeAsync runs fn in a goroutine and delivers its result on the returned
// channel: the object, or the error as an *api.Status. A panic in fn becomes
// a 500 Status instead of a dead channel.
func MakeAsync(fn WorkFunc) <-chan api.Object {
	channel := make(chan api.Object, 1)
	go func() {
		defer close(channel)
		delivered := false
		defer func() {
			if !delivered {
				status := errToAPIStatus(errors.NewInternalError(errPanic))
				channel <- status
			}
		}()
		defer util.HandleCrash()
		obj, err := fn()
		if err != nil {
			channel <- errToAPIStatus(err)
		} else {
			channel <- obj
		}
		delivered = true
	}()
	return channel
}

type panicError struct{}

func (panicError) Error() string { return "storage call panicked; see the apiserver log" }

var errPanic error = panicError{}

// errToAPIStatus turns any error into the Status to send: API errors keep
// their code and reason; anything else is a 500.
func errToAPIStatus(err error) *api.Status {
	if s, ok := err.(errors.APIStatus); ok {
		status := s.Status()
		return &status
	}
	status := errors.NewInternalError(err).(errors.APIStatus).Status()
	return &status
}

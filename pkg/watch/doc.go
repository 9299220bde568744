// Package watch defines the stream of changes that clients follow: an
// Interface whose channel delivers ADDED, MODIFIED, DELETED and ERROR events,
// a StreamWatcher that reads events from a decoder, a Filter, and a
// FakeWatcher for tests. Package watch/json puts events on the wire.
//
// Follows kubernetes/kubernetes pkg/watch as of v0.4 (October 2014).
package watch

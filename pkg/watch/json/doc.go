// Package json puts watch events on the wire as one JSON object per line,
// {"type":"ADDED","object":{...}}, and reads them back.
//
// Follows kubernetes/kubernetes pkg/watch/json as of v0.4 (October 2014),
// when the keys had just become lower case and ERROR had just been added.
package json

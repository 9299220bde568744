// Package errors turns failures into the API's Status objects: not found,
// already exists, conflict, invalid (with one cause per bad field), and the
// client errors this port adds. The apiserver writes the Status; the client
// reads it back into the same error.
//
// Follows kubernetes/kubernetes pkg/api/errors as of v0.4 (October 2014).
package errors

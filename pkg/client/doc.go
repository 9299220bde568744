// Package client is the Go client of the 2014 API: a Config, a chained
// request builder (RESTClient, Request, Result) that speaks v1beta1 JSON and
// polls asynchronous operations, a typed Client implementing Interface for
// pods, replication controllers, services, endpoints, minions and bindings,
// and Fake, a recording stand-in for tests.
//
// Follows kubernetes/kubernetes pkg/client as of v0.4 (October 2014). The
// departures (a client-side rate limiter, a User-Agent, a shared connection
// pool, context cancellation, Status errors from watches) are marked Ours:
// where they are made.
package client

// Package listcost is rcbench listcost: it times LISTs of every pod on a
// large bare apiserver and reads what each cost the apiserver, for
// binaries built from different commits, and writes the page
// examples/listcost publishes.
//
// Ours: not part of 2014.
package listcost

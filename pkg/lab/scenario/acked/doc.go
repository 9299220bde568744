// Package acked checks a stack after a fault: that every create and
// binding the apiserver acknowledged to a client, as the stack's write
// recorder saw them, is still there, and that every stored object reads
// back whole. The crash scenario and the fault tests ask it.
//
// Ours: not part of 2014.
package acked

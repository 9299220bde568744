// Package testutil holds helpers that the laboratory's tests share: a
// buffer that several goroutines may write, the process tree and a
// process's liveness read from /proc (by procfs), and headless Chromium
// screenshots. Waiting for a watch's events or a condition is package
// watchtest's, which the subject's tests share too. Nothing outside tests
// imports it.
//
// Ours: not part of 2014.
package testutil

// Package testutil holds helpers that tests in several packages share: a
// buffer that several goroutines may write, the process tree read from
// /proc, and headless Chromium screenshots. Nothing outside tests imports
// it.
//
// Ours: not part of 2014.
package testutil

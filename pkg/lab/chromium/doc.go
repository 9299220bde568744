// Package chromium drives headless Chromium, where it is installed: a
// screenshot of a page, or the document its scripts leave. Talk mode's
// stills and the tests that look at pages use it.
//
// Ours: not part of 2014.
package chromium

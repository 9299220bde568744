//go:build !modern

package stacktest

// Design is the controller-manager design this test binary drives.
const Design = "legacy"

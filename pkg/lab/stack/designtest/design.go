//go:build !modern

package designtest

// Design is the controller-manager design this test binary drives.
const Design = "legacy"

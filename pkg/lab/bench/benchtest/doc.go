// Package benchtest holds the fakes the tests of the benchmark's runs
// share: synthetic outcomes in place of real clusters, a fake calibration,
// a runner over them, directories of fake binaries, and checks of the
// pages they write.
//
// Ours: not part of 2014.
package benchtest

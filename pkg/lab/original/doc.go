// Package original builds and describes the original Kubernetes v0.4
// binaries — the apiserver, controller-manager and kubecfg of commit
// 4452163 (2014-10-14) — which the laboratory runs beside our ports as the
// variants legacy-original and stack-original.
//
// Nothing of that tree enters this repository. make original (rcbench
// original) exports the commit from a Kubernetes git repository the user
// cloned into a scratch directory under _output, makes there the few edits
// today's Go needs (fixes.go says each one and what it restores), and
// builds the three binaries into _output/v0.4 in GOPATH mode, with the
// tree's own Godeps first on GOPATH, as its hack/build-go.sh did.
//
// meter.go is the counting proxy the laboratory puts in front of the
// original apiserver, which has no /metrics of its own.
//
// Ours: not part of 2014.
package original

// Package history is the project's one record of how the replication
// manager got from October 2014 to today: a catalogue, as Go data, of the
// changes that separate the v0.4 manager (pkg/controller, default build)
// from today's design (pkg/controller, -tags modern).
//
// Each Change names one fix: its flag word, its kubernetes/kubernetes issue
// and pull-request numbers, when it landed, what it changed and why, the
// scenario of pkg/lab/scenario that shows its effect and what that
// scenario must show with and without it, and where its code lives here.
// Code comments, scenario narration, the benchmark's findings and the
// README cite an entry by name, as "(history: burst-cap)", instead of
// retelling the story.
//
// The names are also the switches of the modern controller-manager:
// controller-manager-modern -without=expectations,slow-start runs today's
// code with those changes switched off (see Change.Switch), and rcbench
// history measures every change both ways.
//
// Dates were checked against the upstream history where it reaches (it
// ends on 2015-04-20); later dates come from the project's research notes
// on the upstream pull requests, and each entry says which.
//
// Ours: not part of 2014, nor of today's Kubernetes.
package history

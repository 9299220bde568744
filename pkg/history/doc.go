// Package history is the project's one record of how the replication
// manager got from October 2014 to today: a catalogue, as Go data, of the
// changes between the v0.4 manager and today's (-tags modern), each with
// its issues and pull requests, date, what it changed and why, the
// scenario that shows it, and where its code lives. Comments, findings and
// the Markdown pages cite an entry as "(history: burst-cap)" instead of
// retelling it; the names are also controller-manager-modern's -without
// switches.
// Dates after 2015-04-20, where the upstream history ends, come from
// research notes on the pull requests; each entry says which.
//
// Ours: not part of 2014, nor of today's Kubernetes.
package history

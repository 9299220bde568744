// Package history is the project's one record of how the replication
// manager got from October 2014 to today: a catalogue, as Go data, of the
// changes between the v0.4 manager and today's (-tags modern), each with
// its issues and pull requests, date, what it changed and why, the
// scenario that shows it, and where its code lives. Comments, findings and
// the Markdown pages cite an entry as "(history: burst-cap)" instead of
// retelling it; the names are also controller-manager-modern's -without
// switches.
//
// Every pull request's merge is dated by public pages a reader can open:
// its merge commit upstream where one pins the day, otherwise the pull
// request, changelogs and release notes, with what they show.
//
// Ours: not part of 2014, nor of today's Kubernetes.
package history

// Package watchtest holds the waiting that tests share, of the 2014 stack,
// the modern build and the laboratory alike: for a watch's next event, for
// its end, and for any condition to hold. Each waits within a generous
// deadline, polling where it must, and never asserts how long it took.
//
// Ours: not part of 2014, whose tests each read their watches by hand.
package watchtest

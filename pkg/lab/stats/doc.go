// Package stats is the laboratory's one definition of a median and a
// percentile. The benchmark's figures over runs, its calibration and LIST
// latencies, the scenarios' replacement times and the demo's live tile
// all take theirs from Percentile, so that a p50 on one page is the median
// on another, and Definition is the sentence their pages print to say so.
// MedianInterval gives the interval of order statistics that holds a
// median with a stated confidence, for the calibration's verdict on the
// reader of the write-ahead log.
// It imports nothing of the laboratory, so that every layer may use it.
//
// Ours: not part of 2014.
package stats

// Package noise calibrates the noise that in-process sampling cannot see:
// the drift between whole invocations of one benchmark command on one
// machine. It runs the command again and again (behind a Runner), reads
// each invocation's stream (analysing it when it is raw), and estimates
// each metric's noise as 1.96 × 1.4826 × the median absolute deviation of
// its deltas against the first invocation, until every estimate settles.
package noise

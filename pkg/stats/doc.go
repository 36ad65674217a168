// Package stats computes the descriptive statistics, outlier diagnostics and
// paired comparisons that fb-analyze reports.
//
// Comparisons are built on one idea: reference and contender run adjacently
// in every sample pair, so the per-pair log-ratio ln(ref/con) cancels drift
// that affects both sides alike. Confidence intervals come from a
// deterministic, studentized circular-block bootstrap of the mean of that
// log-ratio series (IntervalMethod): blocks of consecutive samples keep
// short-range serial dependence left in the ratios in every resample, the
// scale comes from a flat-top lag-window standard error that such
// dependence does not bias, and the block length (BlockRule) is chosen so
// that the resamples are as uncertain about their own spread as the data
// are about theirs.
//
// Process-level comparisons take one statistic per process run and a BCa
// bootstrap over whole runs (CompareRunsIndependent, CompareRunsPaired).
//
// Every random draw comes from a wyrand stream whose start hashes the
// caller's seed, a stream label and a chunk of resamples together, so an
// analysis is bit-for-bit reproducible, whatever the number of cores that
// share the resampling.
package stats

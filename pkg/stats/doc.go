// Package stats computes the descriptive statistics, outlier diagnostics and
// paired comparisons that fb-analyze reports.
//
// Comparisons are built on one idea: reference and contender run adjacently
// in every sample pair, so the per-pair log-ratio ln(ref/con) cancels drift
// that affects both sides alike. Confidence intervals come from a
// deterministic circular-block bootstrap of that log-ratio series, with a
// block length chosen from the data so that short-range serial dependence
// left in the ratios is kept in every resample.
//
// Every random draw comes from a PCG generator seeded from the caller's seed
// and a stream label, so an analysis is bit-for-bit reproducible.
package stats

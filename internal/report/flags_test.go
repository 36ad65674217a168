package report

import (
	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/report/svg"
)

// flags spells the fields that analyses and reports name as fb-pair and
// fb-analyze call them (cli's table), for tests that compare the text
// users see.
func flags(path string) string {
	return map[string]string{
		"Until.Rule": "--until", "Until.MaxTime": "--max-time", "SizeSpread": "--size-spread",
		"RandomizeLayout": "--randomize-layout", "Samples": "--samples", "MinSample": "--min-sample-time",
		"Batching": "--batching", "MaxSampling": "--max-sampling-time", "Timer": "--timer",
		"Reference": "--reference", "MaxIterations": "--max-iterations",
		analyze.FieldOutcome: "--outcome", analyze.FieldEstimator: "--estimator", analyze.FieldSeed: "--seed",
		analyze.FieldProcessResamples: "--process-resamples", analyze.FieldFamily: "--family",
		analyze.FieldFamilyConfidence: "--family-confidence",
		svg.FieldPlot:                 "--plot", svg.FieldRun: "--run", FieldFormat: "--format",
	}[path]
}

// flaggedOptions are analyze.DefaultOptions with warnings spelled by flags.
var flaggedOptions = func() analyze.Options {
	o := analyze.DefaultOptions
	o.Names = flags
	return o
}()

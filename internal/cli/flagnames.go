package cli

import (
	"errors"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/check"
	"github.com/flybench/flybench/internal/claim"
	"github.com/flybench/flybench/internal/conditions"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/gate"
	"github.com/flybench/flybench/internal/history"
	"github.com/flybench/flybench/internal/importer"
	"github.com/flybench/flybench/internal/noise"
	"github.com/flybench/flybench/internal/progress"
	"github.com/flybench/flybench/internal/record"
	"github.com/flybench/flybench/internal/report"
)

// flagNames maps a request field, by its path (measure.Request and the
// collect.Config it holds), to the flag that sets it: with engineFlags,
// the one place where an engine's field error learns what the user
// typed. "Mode=worker" is the flag that asks for that mode.
var flagNames = map[string]string{
	"Mode=batch":              "--batch",
	"Mode=worker":             "--worker",
	"Mode=gotest":             "--gotest",
	"Cases":                   "--case",
	"Names":                   "--name",
	"Scan":                    "--parameter-scan",
	"Scan.Ranges":             "--parameter-scan",
	"Scan.Lists":              "--parameter-list",
	"AA":                      "--aa",
	"Timer":                   "--timer",
	"Layout":                  "--randomize-layout",
	"RandomizeLayout":         "--randomize-layout",
	"Reference":               "--reference",
	"KeepPageCache":           "--page-cache",
	"Resume.Path":             "--resume",
	"Resume.Retry":            "--retry-failed",
	"WorkUnits":               "--work-units",
	"Stdio.Input":             "--input",
	"Stdio.Output":            "--output",
	"Command.Shell":           "--shell",
	"Command.IgnoreFailure":   "--ignore-failure",
	"Command.ShowOutput":      "--show-output",
	"Command.WorkerRequest":   "--worker-timeout",
	"Hooks.Prepare":           "--prepare",
	"Hooks.Conclude":          "--conclude",
	"Hooks.Setup":             "--setup",
	"Hooks.Cleanup":           "--cleanup",
	"Placement.CPU":           "--cpu",
	"Duet":                    "--duet",
	"DuetCPUs":                "--duet-cpus",
	"Placement.RequireStrict": "--require-strict",
	"Axes":                    "--metrics",
	"RequirePerf":             "--require-perf",
	"Seed":                    "--seed",
	"Warmup":                  "--warmup",
	"Measurement":             "--measurement-time",
	"MaxSampling":             "--max-sampling-time",
	"Timeout":                 "--timeout",
	"Samples":                 "--samples",
	"MinSample":               "--min-sample-time",
	"MaxIterations":           "--max-iterations",
	"Batching":                "--batching",
	"SizeSpread":              "--size-spread",
	"Sequential":              "--sequential",
	"Invocations":             "--invocations",
	"Rotate":                  "--rotate",
	"Until.Rule":              "--until",
	"Until.MaxTime":           "--max-time",
	"Until.Confidence":        "--confidence",
	"Until.ThresholdPct":      "--threshold",
	"Until.Estimator":         "--estimator",
	"Watch.Response":          "--watch",
	"Watch.MaxForeignPct":     "--max-foreign",
	"Watch.Window":            "--watch-window",
	"Watch.MaxRetakes":        "--max-retakes",
	"Watch.Settle":            "--settle",
	"Watch.MaxPause":          "--max-pause",
	"Watch.Rewarm":            "--rewarm",
}

// engineFlag is the flag that sets an engine's field and the tools that
// have it.
type engineFlag struct {
	flag  string
	tools []string
}

var (
	gateTool     = []string{"fb-gate"}
	analyzeTool  = []string{"fb-analyze"}
	noiseTool    = []string{"fb-noise"}
	recordTool   = []string{"fb-record"}
	reportTool   = []string{"fb-report"}
	historyTool  = []string{"fb-history"}
	measureTools = []string{"fb-pair", "fb-sample"}
)

// engineFlags maps the fields of the other engines, by package and path
// ("gate.Poll"), to their flags.
var engineFlags = map[string]engineFlag{
	gate.FieldMaxAverage: {"--max-average", gateTool},
	gate.FieldMaxCore:    {"--max-core", gateTool},
	gate.FieldStable:     {"--stable", gateTool},
	gate.FieldPoll:       {"--poll", gateTool},
	gate.FieldTimeout:    {"--timeout", gateTool},

	analyze.FieldResamples:        {"--resamples", analyzeTool},
	analyze.FieldProcessResamples: {"--process-resamples", analyzeTool},
	analyze.FieldConfidence:       {"--confidence", analyzeTool},
	analyze.FieldThreshold:        {"--threshold", analyzeTool},
	analyze.FieldOutcome:          {"--outcome", analyzeTool},
	analyze.FieldMultiplicity:     {"--multiplicity", analyzeTool},
	analyze.FieldFamily:           {"--family", analyzeTool},
	analyze.FieldFamilyConfidence: {"--family-confidence", analyzeTool},
	analyze.FieldAllowMismatch:    {"--allow-mismatch", analyzeTool},
	analyze.FieldEstimator:        {"--estimator", analyzeTool},
	analyze.FieldSeed:             {"--seed", analyzeTool},

	noise.FieldMinRuns:   {"--min-runs", noiseTool},
	noise.FieldMaxRuns:   {"--max-runs", noiseTool},
	noise.FieldTolerance: {"--tolerance", noiseTool},
	noise.FieldKeep:      {"--keep", noiseTool},

	importer.FieldNames: {"--name", []string{"fb-import"}},

	conditions.FieldMode:      {"--conditions", measureTools},
	conditions.FieldOnTimeout: {"--conditions-on-timeout", measureTools},
	conditions.FieldThermal:   {"--max-thermal-state", measureTools},

	record.FieldRetention: {"--retention", recordTool},
	record.FieldCapacity:  {"--capacity", recordTool},
	record.FieldSocket:    {"--socket", recordTool},
	record.FieldFIFO:      {"--fifo", recordTool},
	record.FieldRefresh:   {"--refresh", recordTool},
	record.FieldDuration:  {"--duration", recordTool},
	progress.FieldMode:    {"--progress", []string{"fb-pair", "fb-sample", "fb-gate", "fb-record"}},
	axes.FieldSelection:   {"--metrics", []string{"fb-pair", "fb-sample"}},

	check.FieldNoise:           {"--noise", []string{"fb-check"}},
	check.FieldHistoryWhere:    {"--history-where", []string{"fb-check"}},
	check.FieldMaxSlowdown:     {"--max-slowdown", []string{"fb-check"}},
	check.FieldMaxMemoryGrowth: {"--max-memory-growth", []string{"fb-check"}},
	check.FieldMemoryFloor:     {"--memory-floor", []string{"fb-check"}},
	check.FieldMemoryFloorOp:   {"--memory-floor-op", []string{"fb-check"}},
	check.FieldFormat:          {"--format", []string{"fb-check"}},
	check.FieldHistoryRuns:     {"--history-runs", []string{"fb-check"}},
	claim.FieldPath:            {"--path", []string{"fb-lock"}},
	claim.FieldTimeout:         {"--timeout", []string{"fb-lock"}},
	claim.FieldPoll:            {"--poll", []string{"fb-lock"}},
	claim.FieldCPUs:            {"--cpus", []string{"fb-lock"}},
	analyze.FieldBaseline:      {"--baseline", analyzeTool},
	analyze.FieldPlan:          {"--plan", analyzeTool},

	history.FieldMetric: {"--metric", historyTool},
	history.FieldLast:   {"--last", historyTool},
	history.FieldWhere:  {"--where", historyTool},
	history.FieldLevel:  {"--change-level", historyTool},

	report.FieldFormat: {"--format", reportTool},
	report.FieldPlot:   {"--plot", reportTool},
	report.FieldRun:    {"--run", reportTool},
}

// flagName spells a field as its flag; a field without one keeps its path.
func flagName(path string) string {
	if f, ok := flagNames[path]; ok {
		return f
	}
	if f, ok := engineFlags[path]; ok {
		return f.flag
	}
	return path
}

// fieldUsage is a usage error (exit 2) for a field error, worded with the
// flags and its hint; any other error is returned as it is.
func fieldUsage(err error) error {
	var fe *field.Error
	if !errors.As(err, &fe) || fe != err {
		return err
	}
	fe = fe.Named(flagName)
	return withCode(ExitUsage, fe, fe.Hint())
}

package cli

import (
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/completion"
	"github.com/flybench/flybench/internal/measure"
	"github.com/flybench/flybench/internal/report"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// completionFlag prints the tool's shell completion script and exits; it
// is read before the app parses its flags, so every tool has it.
const completionFlag = "generate-completion"

// flagChoices are the fixed values of the flags that have them, by
// "tool/flag", or by "flag" for every tool that has it: the stream's and
// the engines' own words where they have them, so completion offers what
// the flag accepts.
var flagChoices = map[string][]string{
	"fb-report/format":      report.Formats(),
	"fb-report/plot":        report.PlotNames(),
	"fb-check/format":       {"console", "markdown", "ndjson"},
	"color":                 {"auto", "always", "never"},
	"progress":              {"auto", "tty", "plain", "none"},
	"estimator":             {string(stats.EstimatorRobust), string(stats.EstimatorMean)},
	"fb-analyze/estimator":  {string(stats.EstimatorRobust), string(stats.EstimatorMean), string(stats.EstimatorLegacy)},
	"retention":             {ndjson.RetainReservoir, ndjson.RetainFirst, ndjson.RetainLatest},
	"multiplicity":          {"bonferroni", "none"},
	"family":                {ndjson.FamilyTime, ndjson.FamilyAll},
	"outcome":               {"success", "failure", "timeout", "cancelled", "all"},
	"conditions":            {ndjson.ConditionsObserve, ndjson.ConditionsPause, ndjson.ConditionsFail},
	"conditions-on-timeout": {ndjson.ConditionsObserve, ndjson.ConditionsFail},
	"max-thermal-state":     {"nominal", "fair", "serious", "critical"},
	"watch":                 {ndjson.WatchObserve, ndjson.WatchRetake, ndjson.WatchPause},
	"timer":                 {string(measure.TimerAuto), string(measure.TimerWall), string(measure.TimerCPU)},
	"reference":             {"int", "mem"},
	"page-cache":            {ndjson.PageCacheDrop, ndjson.PageCacheKeep},
	completionFlag:          completion.Shells,
}

// CompletionSpec is the command line of tool as its completion scripts
// offer it: its flags, --help, --version and --generate-completion.
func CompletionSpec(tool string) completion.Spec {
	s := completion.FromApp(App(tool), func(flag string) []string {
		if c, ok := flagChoices[tool+"/"+flag]; ok {
			return c
		}
		return flagChoices[flag]
	})
	return s
}

// completionFlagDef is --generate-completion as --help and the man pages
// show it. Run answers it before the app parses anything, so the app
// sees it only when it is not the first argument, and refuses it.
func completionFlagDef() ucli.Flag {
	return &ucli.StringFlag{
		Name:     completionFlag,
		Category: output,
		Usage:    "print the completion script for this shell (" + strings.Join(completion.Shells, ", ") + ") and exit; must be the first argument",
		Action: func(*ucli.Context, string) error {
			return usageErrorf("--%s must be the first argument (TOOL --%s SHELL)", completionFlag, completionFlag)
		},
	}
}

// generateCompletion answers "TOOL --generate-completion SHELL" (or
// =SHELL); handled is false for any other command line.
func generateCompletion(tool string, args []string, env Env) (code int, handled bool) {
	if len(args) < 2 || !strings.HasPrefix(args[1], "--"+completionFlag) {
		return 0, false
	}
	shell, eq := strings.CutPrefix(args[1], "--"+completionFlag+"=")
	switch {
	case eq && len(args) == 2:
	case args[1] == "--"+completionFlag && len(args) == 3:
		shell = args[2]
	default:
		return printError(env.Stderr, tool, usageErrorf("--%s takes one shell (%s) and nothing else", completionFlag, strings.Join(completion.Shells, ", "))), true
	}
	script, err := completion.Script(shell, CompletionSpec(tool))
	if err != nil {
		return printError(env.Stderr, tool, usageErrorf("--%s: %v", completionFlag, err)), true
	}
	fmt.Fprint(env.Stdout, script)
	return ExitOK, true
}

package cli

import (
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/completion"
)

// completionFlag prints the tool's shell completion script and exits; it
// is read before the app parses its flags, so every tool has it.
const completionFlag = "generate-completion"

// flagChoices are the fixed values of the flags that have them, by
// "tool/flag", or by "flag" for every tool that has it.
var flagChoices = map[string][]string{
	"format":                {"console", "csv", "json", "markdown", "long-csv"},
	"fb-check/format":       {"console", "markdown", "ndjson"},
	"color":                 {"auto", "always", "never"},
	"progress":              {"auto", "tty", "plain", "none"},
	"estimator":             {"robust", "mean"},
	"fb-analyze/estimator":  {"robust", "mean", "legacy"},
	"retention":             {"reservoir", "first", "latest"},
	"multiplicity":          {"bonferroni", "none"},
	"family":                {"time", "all"},
	"outcome":               {"success", "failure", "timeout", "cancelled", "all"},
	"conditions":            {"observe", "pause", "fail"},
	"conditions-on-timeout": {"observe", "fail"},
	"max-thermal-state":     {"nominal", "fair", "serious", "critical"},
	"watch":                 {"observe", "retake", "pause"},
	"timer":                 {"auto", "wall", "cpu"},
	"reference":             {"int", "mem"},
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
	s.Flags = append(s.Flags, completion.Flag{
		Names: []string{completionFlag}, TakesValue: true, Choices: completion.Shells,
		Usage: "print the completion script for this shell and exit",
	})
	return s
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

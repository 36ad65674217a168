// Package cli holds the command-line front ends of the flybench tools:
// for each tool its flags, the request or options they make for the
// package that does the work (internal/measure for fb-sample and
// fb-pair, analyze, report, check and the rest for the others), and the
// exit status its errors map to. Each cmd/fb-* main is one line calling
// Main; everything lives here so tests can drive every tool in-process
// and as a binary.
//
// Files: cli.go the tools and their conventions; exit.go exit codes and
// how errors print; shared.go what every tool reads (inputs, terminal,
// tags); flagnames.go the one table from a request field to its flag;
// then one file or two per tool (measure*.go for fb-sample and fb-pair).
package cli

import (
	"fmt"
	"io"
	"os"
	"sort"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/lifecycle"
	"github.com/flybench/flybench/internal/version"
)

// Env is what a tool reads and writes: its standard streams and environment.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// verb is fb-history's verb when it came first (historyVerbFirst).
	verb string
}

// StdEnv is the process's own environment.
func StdEnv() Env {
	return Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
}

// tools maps each tool name to the constructor of its app.
var tools = map[string]func(Env) *ucli.App{
	"fb-sample":  sampleApp,
	"fb-pair":    pairApp,
	"fb-analyze": analyzeApp,
	"fb-report":  reportApp,
	"fb-lock":    lockApp,
	"fb-gate":    gateApp,
	"fb-check":   checkApp,
	"fb-noise":   noiseApp,
	"fb-import":  importApp,
	"fb-refwork": refworkApp,
	"fb-record":  recordApp,
	"fb-history": historyApp,
}

// Tools lists the tool names, sorted.
func Tools() []string {
	names := make([]string, 0, len(tools))
	for n := range tools {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// App returns the urfave/cli app of a tool (for man page generation).
func App(tool string) *ucli.App {
	return build(tool, StdEnv())
}

// build makes a tool's app with the flags every tool shares appended.
func build(tool string, env Env) *ucli.App {
	app := tools[tool](env)
	app.Flags = append(app.Flags, completionFlagDef())
	groupFlags(tool, app)
	return app
}

// Main runs the named tool on the process's arguments and returns its exit code.
func Main(tool string) int {
	lifecycle.CatchSIGPIPE() // a closed stdout is ExitOutput, not a silent death
	return Run(tool, os.Args, StdEnv())
}

// Run runs the named tool with args (args[0] is the program name).
func Run(tool string, args []string, env Env) int {
	if _, ok := tools[tool]; !ok {
		fmt.Fprintf(env.Stderr, "flybench: error: no tool named %q\n", tool)
		return ExitUsage
	}
	if code, handled := generateCompletion(tool, args, env); handled {
		return code
	}
	if tool == "fb-history" {
		env, args = historyVerbFirst(env, args)
	}
	return printError(env.Stderr, tool, build(tool, env).Run(args))
}

// newApp sets the conventions every tool shares.
func newApp(env Env, name, usage, argsUsage, description string) *ucli.App {
	return &ucli.App{
		Name:                      name,
		HelpName:                  name,
		Usage:                     usage,
		UsageText:                 name + " [options] " + argsUsage,
		ArgsUsage:                 argsUsage,
		Description:               description,
		Version:                   version.Version,
		Reader:                    env.Stdin,
		Writer:                    env.Stdout,
		ErrWriter:                 env.Stderr,
		HideHelpCommand:           true,
		DisableSliceFlagSeparator: true,
		ExitErrHandler:            func(*ucli.Context, error) {},
		OnUsageError: func(c *ucli.Context, err error, _ bool) error {
			return withCode(ExitUsage, err, "see '"+name+" --help'")
		},
	}
}

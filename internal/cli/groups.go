package cli

import (
	"fmt"

	ucli "github.com/urfave/cli/v2"
)

// Every tool's flags are shown in groups, in this order, in --help and in
// the man pages' OPTIONS: what bounds a run, how it samples, what an
// operation is, what runs around it, the host, the statistics and what is
// written.
var flagGroupOrder = []string{"Budget", "Sampling", "Modes", "Hooks and I/O", "Host", "Statistics", "Store", "Output"}

// flagGroups places every flag of every tool, by name; toolFlagGroups
// places a name that means something else in one tool.
var flagGroups = map[string]string{
	// Budget
	"warmup": "Budget", "measurement-time": "Budget", "max-sampling-time": "Budget", "samples": "Budget",
	"min-sample-time": "Budget", "max-iterations": "Budget", "until": "Budget", "max-time": "Budget",
	"min-runs": "Budget", "max-runs": "Budget", "tolerance": "Budget", "duration": "Budget", "iterations": "Budget",
	// Sampling
	"seed": "Sampling", "subtract-timer-cost": "Sampling", "timer": "Sampling", "metrics": "Sampling",
	"require-perf": "Sampling", "batching": "Sampling", "shared-iterations": "Sampling", "size-spread": "Sampling",
	"sequential": "Sampling", "invocations": "Sampling", "rotate": "Sampling", "resume": "Sampling",
	"retry-failed": "Sampling", "randomize-layout": "Sampling", "aa": "Sampling", "reference": "Sampling",
	"work-units": "Sampling", "retention": "Sampling", "capacity": "Sampling",
	// Modes
	"batch": "Modes", "worker": "Modes", "case": "Modes", "worker-timeout": "Modes", "worker-start-timeout": "Modes",
	"gotest": "Modes", "gotest-bench": "Modes", "gotest-benchmem": "Modes", "gotest-cpu": "Modes", "gotest-dir": "Modes",
	"shell": "Modes", "ignore-failure": "Modes", "parameter-scan": "Modes", "parameter-step-size": "Modes",
	"parameter-list": "Modes", "baseline": "Modes", "allow-mismatch": "Modes", "plan": "Modes", "status": "Modes",
	// Hooks and I/O
	"show-output": "Hooks and I/O", "input": "Hooks and I/O", "output": "Hooks and I/O", "prepare": "Hooks and I/O",
	"conclude": "Hooks and I/O", "setup": "Hooks and I/O", "cleanup": "Hooks and I/O", "socket": "Hooks and I/O",
	"fifo": "Hooks and I/O",
	// Host
	"watch": "Host", "max-foreign": "Host", "watch-window": "Host", "max-retakes": "Host", "settle": "Host",
	"max-pause": "Host", "rewarm": "Host", "cpu": "Host", "require-strict": "Host", "duet": "Host", "duet-cpus": "Host", "conditions": "Host",
	"conditions-on-timeout": "Host", "allow-reduced-profile": "Host", "require-profile-detection": "Host",
	"require-thermal-detection": "Host", "max-thermal-state": "Host", "conditions-stable": "Host",
	"conditions-poll": "Host", "conditions-max-pause": "Host", "max-average": "Host", "max-core": "Host",
	"stable": "Host", "poll": "Host", "timeout": "Host", "path": "Host", "cpus": "Host",
	"require-machine-scope": "Host", "this-host": "Host",
	// Statistics
	"confidence": "Statistics", "threshold": "Statistics", "estimator": "Statistics", "resamples": "Statistics",
	"process-resamples": "Statistics", "multiplicity": "Statistics", "family-confidence": "Statistics",
	"family": "Statistics", "noise": "Statistics", "max-slowdown": "Statistics", "max-memory-growth": "Statistics",
	"memory-floor": "Statistics", "memory-floor-op": "Statistics", "change-level": "Statistics",
	// Store
	"db": "Store", "history": "Store", "history-runs": "Store", "history-where": "Store", "where": "Store", "class": "Store", "last": "Store", "metric": "Store", "chain": "Store",
	// Output
	"name": "Output", "tag": "Output", "progress": "Output", "outcome": "Output", "format": "Output",
	"color": "Output", "record": "Output", "quiet": "Output", "json": "Output", "keep": "Output",
	"refresh": "Output", "verbose": "Output", "report": "Output", "details": "Output", "plot": "Output",
	"run": "Output", "generate-completion": "Output",
}

var toolFlagGroups = map[string]string{
	"fb-sample timeout": "Budget", // a run's time limit; fb-gate's and fb-lock's wait
	"fb-pair timeout":   "Budget",
	"fb-analyze seed":   "Statistics", // the resampling's seed
	"fb-report samples": "Output",     // json: every raw sample
	"fb-history case":   "Store",      // the case whose series to show
	"fb-history seed":   "Statistics", // the permutation tests' seed
}

// flagGroup is one heading of a tool's options and its flags, in the
// order the tool defines them.
type flagGroup struct {
	Name  string
	Flags []ucli.Flag
}

// groupOf is the group of a tool's flag, "" when the tables have none.
func groupOf(tool, flag string) string {
	if g, ok := toolFlagGroups[tool+" "+flag]; ok {
		return g
	}
	return flagGroups[flag]
}

// groupFlags puts a tool's flags into their groups: each flag's urfave
// category, and the app's help template listing the groups in
// flagGroupOrder (urfave's own listing sorts groups and flags by name).
// It panics on a flag without a group, which a test catches.
func groupFlags(tool string, app *ucli.App) {
	byName := map[string][]ucli.Flag{}
	for _, f := range app.Flags {
		g := groupOf(tool, f.Names()[0])
		if g == "" || !setCategory(f, g) {
			panic(fmt.Sprintf("%s: flag --%s has no group in internal/cli/groups.go", tool, f.Names()[0]))
		}
		byName[g] = append(byName[g], f)
	}
	byName["Output"] = append(byName["Output"], ucli.HelpFlag, ucli.VersionFlag)
	var groups []flagGroup
	for _, g := range flagGroupOrder {
		if len(byName[g]) > 0 {
			groups = append(groups, flagGroup{Name: g, Flags: byName[g]})
		}
	}
	if app.Metadata == nil {
		app.Metadata = map[string]any{}
	}
	app.Metadata["flagGroups"] = groups
	app.CustomAppHelpTemplate = helpTemplate
}

// FlagGroups are a tool's option groups with their flags' names, in the
// order --help lists them (for the man pages).
func FlagGroups(app *ucli.App) (names []string, flags [][]ucli.Flag) {
	groups, _ := app.Metadata["flagGroups"].([]flagGroup)
	for _, g := range groups {
		names, flags = append(names, g.Name), append(flags, g.Flags)
	}
	return names, flags
}

// setCategory sets a flag's urfave category; false for a flag type it
// does not know.
func setCategory(f ucli.Flag, g string) bool {
	switch f := f.(type) {
	case *ucli.BoolFlag:
		f.Category = g
	case *ucli.StringFlag:
		f.Category = g
	case *ucli.StringSliceFlag:
		f.Category = g
	case *ucli.DurationFlag:
		f.Category = g
	case *ucli.IntFlag:
		f.Category = g
	case *ucli.Int64Flag:
		f.Category = g
	case *ucli.Uint64Flag:
		f.Category = g
	case *ucli.Float64Flag:
		f.Category = g
	case *ucli.GenericFlag:
		f.Category = g
	default:
		return false
	}
	return true
}

// helpTemplate is urfave's app help with the options listed by group.
const helpTemplate = `NAME:
   {{template "helpNameTemplate" .}}

USAGE:
   {{wrap .UsageText 3}}{{if .Version}}{{if not .HideVersion}}

VERSION:
   {{.Version}}{{end}}{{end}}{{if .Description}}

DESCRIPTION:
   {{template "descriptionTemplate" .}}{{end}}

OPTIONS:{{range .Metadata.flagGroups}}

   {{.Name}}:{{range .Flags}}
   {{wrap .String 6}}{{end}}{{end}}
`

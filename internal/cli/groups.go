package cli

import (
	"fmt"
	"slices"

	ucli "github.com/urfave/cli/v2"
)

// Every tool's flags are shown in groups, in this order, in --help and in
// the man pages' OPTIONS: what bounds a run, how it samples, what an
// operation is, what runs around it, the host, the statistics, the
// results store and what is written. Each flag names its group where it
// is defined (urfave's Category).
const (
	budget     = "Budget"
	sampling   = "Sampling"
	modes      = "Modes"
	hooksIO    = "Hooks and I/O"
	host       = "Host"
	statistics = "Statistics"
	store      = "Store"
	output     = "Output"
)

var flagGroupOrder = []string{budget, sampling, modes, hooksIO, host, statistics, store, output}

// flagGroup is one heading of a tool's options and its flags, in the
// order the tool defines them.
type flagGroup struct {
	Name  string
	Flags []ucli.Flag
}

// groupFlags lists a tool's flags by their groups: the app's help
// template shows the groups in flagGroupOrder (urfave's own listing sorts
// groups and flags by name). It panics on a flag without a known group,
// which a test catches.
func groupFlags(tool string, app *ucli.App) {
	byName := map[string][]ucli.Flag{}
	for _, f := range app.Flags {
		g := ""
		if cf, ok := f.(ucli.CategorizableFlag); ok {
			g = cf.GetCategory()
		}
		if !slices.Contains(flagGroupOrder, g) {
			panic(fmt.Sprintf("%s: flag --%s has no group (its Category)", tool, f.Names()[0]))
		}
		byName[g] = append(byName[g], f)
	}
	byName[output] = append(byName[output], ucli.HelpFlag, ucli.VersionFlag)
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

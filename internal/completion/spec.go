// Package completion writes static shell completion scripts (bash, zsh,
// fish) for a urfave/cli app: its flags, long and short, the fixed values
// of the flags that have them, and files for every other value and
// argument. The scripts need no help from the tool at completion time.
package completion

import (
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// Shells are the shells a script can be written for.
var Shells = []string{"bash", "zsh", "fish"}

// Flag is one flag as a completion script offers it.
type Flag struct {
	Names      []string // long and short names, without dashes, first the main one
	Usage      string   // one-line description
	TakesValue bool     // the flag is followed by a value
	Repeatable bool     // the flag may be given more than once
	Choices    []string // the fixed values, or none: the value is a file or free text
}

// Spec is a tool's command line as its completion scripts know it.
type Spec struct {
	Tool  string
	Flags []Flag
}

// FromApp reads the visible flags of app, plus --help and --version, and
// asks choices for the fixed values of each flag (by its main name).
func FromApp(app *ucli.App, choices func(flag string) []string) Spec {
	s := Spec{Tool: app.Name}
	flags := append([]ucli.Flag{}, app.VisibleFlags()...)
	flags = append(flags, ucli.HelpFlag)
	if app.Version != "" && !app.HideVersion {
		flags = append(flags, ucli.VersionFlag)
	}
	for _, f := range flags {
		cf := Flag{Names: f.Names()}
		if df, ok := f.(ucli.DocGenerationFlag); ok {
			cf.Usage = summary(df.GetUsage())
			cf.TakesValue = df.TakesValue()
		}
		_, isSlice := f.(ucli.DocGenerationSliceFlag)
		cf.Repeatable = isSlice
		if choices != nil {
			cf.Choices = choices(cf.Names[0])
		}
		s.Flags = append(s.Flags, cf)
	}
	return s
}

// Script returns the completion script of s for shell.
func Script(shell string, s Spec) (string, error) {
	switch shell {
	case "bash":
		return bashScript(s), nil
	case "zsh":
		return zshScript(s), nil
	case "fish":
		return fishScript(s), nil
	}
	return "", fmt.Errorf("no completion for shell %q, use %s", shell, strings.Join(Shells, ", "))
}

// FileName is the name a shell looks the tool's script up by in its
// completion directory.
func FileName(shell, tool string) string {
	switch shell {
	case "zsh":
		return "_" + tool
	case "fish":
		return tool + ".fish"
	}
	return tool
}

// dashed spells a flag name as typed: -x for one letter, --name otherwise.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// summary cuts a flag's usage before its first "; " or " (", at most 80 characters,
// on one line.
func summary(usage string) string {
	usage = strings.Join(strings.Fields(usage), " ")
	for _, stop := range []string{"; ", " ("} {
		if i := strings.Index(usage, stop); i > 0 {
			usage = usage[:i]
		}
	}
	usage = strings.TrimRight(usage, " ,")
	if len(usage) > 80 {
		usage = strings.TrimRight(usage[:77], " ,") + "..."
	}
	return usage
}

// header is the first comment line of every script.
func header(shell, tool string) string {
	return fmt.Sprintf("# %s completion for %s, written by %s --generate-completion %s.\n", shell, tool, tool, shell)
}

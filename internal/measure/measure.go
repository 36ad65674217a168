// Package measure owns a measurement: a typed Request (what to run, in
// which mode, with which timer, stopping rule, hooks, placement, layout,
// reference workload, process blocks and resumption) checked by its own
// validation, which names the field at fault (*field.Error); the
// operation adapters of each mode; and the wiring of host, reference,
// layout, counters, rotation and resumption around one collect.Engine
// run, or an A/A series of them. It knows no flag: a front end turns its
// command line into a Request, and its own names for the fields into
// Env.Names.
package measure

import (
	"io"
	"os"

	"github.com/flybench/flybench/internal/field"
)

// Env is where a measurement writes and how it speaks.
type Env struct {
	Stdout io.Writer // the record stream
	Stderr io.Writer // progress, warnings, and the commands' shown output
	Getenv func(string) string
	// Names spells a request field as the user knows it, in messages and
	// in the record texts that name one; nil spells its path.
	Names field.Names
}

// stderrFile is where shown command output goes: Stderr when it is a
// file, else the process's stderr.
func (env Env) stderrFile() *os.File {
	if f, ok := env.Stderr.(*os.File); ok {
		return f
	}
	return os.Stderr
}

// Run validates the request and measures it: one run, or an A/A series,
// whose records go to env.Stdout (or the resumed archive). A request that
// cannot be measured is a *field.Error, spelled with env.Names; the
// other errors say what stopped the run (errors.go).
func Run(r Request, env Env) error {
	p, err := r.resolve()
	if err != nil {
		return named(err, env.Names)
	}
	if p.AA != nil {
		return runSeries(p, env)
	}
	return runOnce(p, env, p.Tool)
}

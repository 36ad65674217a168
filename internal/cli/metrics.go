package cli

import (
	"fmt"

	"github.com/flybench/flybench/internal/measure"
)

// requirePerf is the --require-perf flag: a bool flag ("--require-perf")
// that also takes the narrower policy "--require-perf=core".
type requirePerf struct{ level measure.Requirement }

func (r *requirePerf) String() string { return string(r.level) }

func (r *requirePerf) Set(v string) error {
	switch v {
	case "true", "all":
		r.level = measure.RequireAll
	case "core":
		r.level = measure.RequireCore
	case "false", "":
		r.level = measure.RequireNone
	default:
		return fmt.Errorf("use --require-perf (every selected hardware axis) or --require-perf=core (cycles, instructions, ipc)")
	}
	return nil
}

// IsBoolFlag lets the flag stand alone, as --require-perf.
func (r *requirePerf) IsBoolFlag() bool { return true }

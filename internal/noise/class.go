package noise

import (
	"fmt"
	"strconv"

	"github.com/flybench/flybench/pkg/ndjson"
)

// ClassOf is the machine class of a host fingerprint.
func ClassOf(h ndjson.Host) ndjson.MachineClass {
	return ndjson.MachineClass{OS: h.OS, Arch: h.Arch, CPUModel: h.CPUModel, CPUs: h.CPUs}
}

// ClassError is a measurement on another machine class than the first
// one: a noise profile describes exactly one class.
type ClassError struct {
	Field string // "os", "arch", "cpu_model" or "cpus"
	Want  string
	Got   string
}

func (e *ClassError) Error() string {
	return fmt.Sprintf("host %s is %q, not %q as before: a noise profile describes one machine class", e.Field, e.Got, e.Want)
}

// compareClass returns a *ClassError naming the first field in which got
// differs from want.
func compareClass(want, got ndjson.MachineClass) error {
	fields := []struct{ name, want, got string }{
		{"os", want.OS, got.OS},
		{"arch", want.Arch, got.Arch},
		{"cpu_model", want.CPUModel, got.CPUModel},
		{"cpus", strconv.Itoa(want.CPUs), strconv.Itoa(got.CPUs)},
	}
	for _, f := range fields {
		if f.want != f.got {
			return &ClassError{Field: f.name, Want: f.want, Got: f.got}
		}
	}
	return nil
}

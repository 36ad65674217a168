// Package gate is the CPU quiescence preflight: it waits until the host's
// CPUs have stayed quiet long enough to start measuring, or gives up. It
// detects competing CPU work only; I/O, thermal state, frequency changes
// and load that starts later are outside its view.
package gate

import (
	"time"

	"github.com/flybench/flybench/internal/field"
)

// Policy is when the host counts as quiet (seed: CPU_Quiescence_Policy).
type Policy struct {
	// MaxAveragePct is the largest accepted host-wide busy share and
	// MaxCorePct the largest on any one logical CPU, in percent. The
	// per-CPU limit keeps one saturated CPU from hiding among many idle ones.
	MaxAveragePct, MaxCorePct float64
	// Stable is how long both limits must hold without a break.
	Stable time.Duration
	// Poll is the interval between counter snapshots; each is judged alone.
	Poll time.Duration
	// Timeout is the longest the gate waits.
	Timeout time.Duration
}

// DefaultPolicy is the seed's: 20% average, 50% on any CPU, held for 1 s,
// polled every 100 ms, for at most 15 s.
var DefaultPolicy = Policy{
	MaxAveragePct: 20, MaxCorePct: 50,
	Stable: time.Second, Poll: 100 * time.Millisecond, Timeout: 15 * time.Second,
}

// The fields of a Policy as its field errors name them.
const (
	FieldMaxAverage = "gate.MaxAveragePct"
	FieldMaxCore    = "gate.MaxCorePct"
	FieldStable     = "gate.Stable"
	FieldPoll       = "gate.Poll"
	FieldTimeout    = "gate.Timeout"
)

// Validate refuses a policy that could never work, with a field error
// naming the setting at fault.
func (p Policy) Validate() error {
	avg, core, stable, poll, timeout := field.Name(FieldMaxAverage), field.Name(FieldMaxCore),
		field.Name(FieldStable), field.Name(FieldPoll), field.Name(FieldTimeout)
	switch {
	case !(p.MaxAveragePct >= 0 && p.MaxAveragePct <= 100):
		return field.Errorf(FieldMaxAverage, p.MaxAveragePct, "%s %g: use 0 to 100 (percent)", avg, p.MaxAveragePct)
	case !(p.MaxCorePct >= 0 && p.MaxCorePct <= 100):
		return field.Errorf(FieldMaxCore, p.MaxCorePct, "%s %g: use 0 to 100 (percent)", core, p.MaxCorePct)
	case p.Stable <= 0:
		return field.Errorf(FieldStable, p.Stable, "%s %v must be positive", stable, p.Stable)
	case p.Poll <= 0:
		return field.Errorf(FieldPoll, p.Poll, "%s %v must be positive", poll, p.Poll)
	case p.Timeout <= 0:
		return field.Errorf(FieldTimeout, p.Timeout, "%s %v must be positive", timeout, p.Timeout)
	case p.Timeout < p.Stable:
		return field.Errorf(FieldTimeout, p.Timeout, "%s %v is shorter than %s %v: a timeout shorter than the stable time can never be satisfied", timeout, p.Timeout, stable, p.Stable)
	case p.Poll > p.Timeout:
		return field.Errorf(FieldPoll, p.Poll, "%s %v is slower than %s %v: a poll slower than the timeout would let the gate expire unsampled", poll, p.Poll, timeout, p.Timeout)
	}
	return nil
}

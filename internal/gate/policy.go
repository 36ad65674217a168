// Package gate is the CPU quiescence preflight: it waits until the host's
// CPUs have stayed quiet long enough to start measuring, or gives up. It
// detects competing CPU work only; I/O, thermal state, frequency changes
// and load that starts later are outside its view.
package gate

import (
	"fmt"
	"time"
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

// Validate refuses a policy that could never work. Its messages name the
// fb-gate flags.
func (p Policy) Validate() error {
	switch {
	case !(p.MaxAveragePct >= 0 && p.MaxAveragePct <= 100):
		return fmt.Errorf("--max-average %g: use 0 to 100 (percent)", p.MaxAveragePct)
	case !(p.MaxCorePct >= 0 && p.MaxCorePct <= 100):
		return fmt.Errorf("--max-core %g: use 0 to 100 (percent)", p.MaxCorePct)
	case p.Stable <= 0:
		return fmt.Errorf("--stable %v must be positive", p.Stable)
	case p.Poll <= 0:
		return fmt.Errorf("--poll %v must be positive", p.Poll)
	case p.Timeout <= 0:
		return fmt.Errorf("--timeout %v must be positive", p.Timeout)
	case p.Timeout < p.Stable:
		return fmt.Errorf("--timeout %v is shorter than --stable %v: a timeout shorter than the stable time can never be satisfied", p.Timeout, p.Stable)
	case p.Poll > p.Timeout:
		return fmt.Errorf("--poll %v is slower than --timeout %v: a poll slower than the timeout would let the gate expire unsampled", p.Poll, p.Timeout)
	}
	return nil
}

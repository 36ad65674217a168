package cli

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/collect"
)

// batchingAuto is --batching's default: shared, unless every side of a
// worker run declares its cost independent of the batch size.
const batchingAuto = "auto"

// batchingFlags choose how batches are sized: fb-pair's --batching (and
// its older spelling), and --size-spread for both tools.
func batchingFlags(pair bool) []ucli.Flag {
	spread := &ucli.Float64Flag{Name: "size-spread", Value: collect.DefaultSizeSpread,
		Usage: "vary the batch size of successive pairs or rounds over this factor around the calibrated one (the same for every case of a unit, seeded, recorded per sample), so a per-operation time that depends on the batch size shows in fb-analyze's size diagnostic; 1 keeps one fixed size"}
	if !pair {
		return []ucli.Flag{spread}
	}
	return []ucli.Flag{
		&ucli.StringFlag{Name: "batching", Value: batchingAuto,
			Usage: "batch sizes: shared (every case of a pair or round runs the same number of operations), equal-time (each case's batch sized toward an equal timed slice: the comparison then assumes an operation's cost does not depend on the batch size) or auto (shared, unless every side of a --worker run declares batching=equal-time)"},
		&ucli.BoolFlag{Name: "shared-iterations", Usage: "the same as --batching shared"},
		spread,
	}
}

// batchingOf reads --batching: the policy, and whether it was left to the
// mode (auto).
func batchingOf(c *ucli.Context) (collect.Batching, bool, error) {
	v := c.String("batching")
	if c.Bool("shared-iterations") {
		if c.IsSet("batching") && v != "shared" {
			return "", false, usageErrorf("--shared-iterations and --batching %s: choose one (--shared-iterations is --batching shared)", v)
		}
		v = "shared"
	}
	switch v {
	case "", batchingAuto:
		return collect.SharedIterations, true, nil
	case "shared":
		return collect.SharedIterations, false, nil
	case "equal-time":
		return collect.EqualTime, false, nil
	}
	return "", false, usageErrorf("--batching %q: use shared, equal-time or auto", v)
}

// resolveBatching settles an automatic policy once the sides are known:
// equal timed slices only when every side is a worker case that declared
// its cost size-independent.
func (m *measurement) resolveBatching(sizeIndependent []bool) {
	if !m.batchingAuto || len(sizeIndependent) == 0 {
		return
	}
	for _, ok := range sizeIndependent {
		if !ok {
			return
		}
	}
	m.cfg.Batching = collect.EqualTime
}

package collect

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// warmup runs the cases round-robin, untimed as far as the results go, until
// each has used its share of the warmup time, doubling each case's batch so a
// fast operation is not dominated by per-batch overhead. Every case runs at
// least once, so even a zero warmup yields a per-operation estimate.
//
// It returns each case's per-operation estimate and its batches' overhead:
// the least wall time a batch spent beyond what calibration fills (a
// process start under a batch's own timer, a worker's round trip; 0 when
// the batch's wall time is what is timed). The least, because
// interference and a program read back from disk only add to it.
func (e *Engine) warmup() (est, over []float64, err error) {
	k := len(e.Cases)
	share := int64(e.Config.Warmup) / int64(k)
	spent := make([]int64, k)
	n := make([]int64, k)
	est, over = make([]float64, k), make([]float64, k)
	for c := range n {
		n[c] = 1
		over[c] = math.Inf(1)
	}
	for more := true; more; {
		more = false
		for _, c := range e.order() {
			if est[c] > 0 && spent[c] >= share {
				continue
			}
			e.report(Status{Phase: "warming", Case: e.Cases[c].Name})
			ns, err := e.runBatch(c, n[c], nil)
			if err != nil {
				return nil, nil, err
			}
			spent[c] += ns
			e.note(c, n[c], ns, est, over)
			n[c] = nextWarmBatch(n[c], share-spent[c], est[c], e.Config.MaxIterations)
			more = more || spent[c] < share
		}
	}
	return est, over, nil
}

// note takes a batch of n operations of case c that lasted ns of wall
// time into est (its per-operation estimate) and over (the least
// overhead seen).
func (e *Engine) note(c int, n, ns int64, est, over []float64) {
	timed := e.timed(c, ns)
	est[c] = perOp(timed, n)
	over[c] = math.Min(over[c], float64(max(ns-timed, 0)))
}

// timed is the part of a batch calibration sizes: the operation's own
// report under a self timer, so the slice is filled with measured work and
// process start-up or a round trip comes on top; wall time otherwise.
//
// Under the CPU timer the slice is filled with wall time too. CPU time can
// be any fraction of the elapsed time (a command that sleeps or waits on
// I/O uses almost none), so slices of CPU time could make a run last many
// times --measurement-time, while for the CPU-bound work the timer is
// meant for the two agree. Wall time is the budget clock in every case.
func (e *Engine) timed(c int, wall int64) int64 {
	if !e.SelfTimer {
		return wall
	}
	st, ok := e.Cases[c].Op.(SelfTimed)
	if !ok {
		return wall
	}
	self, err := st.SelfElapsed()
	if err != nil || !(self > 0) {
		return wall
	}
	return int64(self)
}

// nextWarmBatch doubles n but never plans past the remaining warmup time.
func nextWarmBatch(n, remaining int64, est float64, limit int64) int64 {
	next := n * 2
	if fit := int64(float64(remaining) / est); fit < next {
		next = fit
	}
	return clamp(next, 1, limit)
}

// calibrate chooses each case's batch size from its warmup estimate, checks
// it with one batch per case and refines it, and writes calibration records.
// With fit (an automatic --samples), the sample count is then fitted to the
// calibrated batches, so that the run keeps to its budget: a batch is
// whole operations at least a slice long, so a slice a little over one
// operation (an automatic count sizes it to the slowest one) makes every
// batch two, and the slower side's cap can make its batch eight slices.
// Each case's operation is taken at the lower of its two estimates, the
// warm-up's and the calibration's: interference only ever slows a batch,
// and a count fitted to one that a burst inflated would end the run early.
// The count is planned before the calibration batches, on the warm-up's
// estimates and overhead, and again after them with the overhead at the
// least of both: a warm-up may have run a case once, its program read
// back from disk.
func (e *Engine) calibrate(est, over []float64, fit bool) ([]int64, error) {
	k := len(e.Cases)
	warm := slices.Clone(est)
	if fit {
		e.Config.Samples = e.Config.autoSamples(k, warm, over)
	}
	slice := int64(e.Config.Slice(k))
	iters, _ := e.batchSizes(est, slice)
	spent := make([]int64, k)
	for i, c := range e.order() {
		e.report(Status{Phase: "calibrating", Case: e.Cases[c].Name, Done: i, Total: k})
		t0 := e.Clock.Now()
		ns, err := e.runBatch(c, iters[c], nil)
		if err != nil {
			return nil, err
		}
		spent[c] = e.Clock.Now() - t0
		e.note(c, iters[c], ns, est, over)
	}
	if fit {
		e.Config.Samples = e.Config.autoSamples(k, warm, over)
		slice = int64(e.Config.Slice(k))
	}
	iters, capped := e.batchSizes(est, slice)
	low := make([]float64, k)
	for c := range low {
		low[c] = math.Min(warm[c], est[c])
	}
	if fit {
		e.Config.Samples = e.Config.fitSamples(iters, low)
	}
	e.planned = e.Config.plan(iters, low, over, fit)
	for c := 0; c < k; c++ {
		rec := &ndjson.Calibration{
			Case: c, Name: e.Cases[c].Name, Iterations: iters[c], TargetNS: slice,
			EstimateNS: est[c], DurationNS: spent[c], Batches: 1, Capped: capped[c], Samples: e.Config.Samples,
			FloorNS: e.Run.TimerFloorNS(iters[c]), Proc: e.proc,
		}
		if err := e.Out.Write(rec); err != nil {
			return nil, err
		}
	}
	return iters, nil
}

// samplingPlan is what calibration expects of the sampling: how long a
// unit lasts on the wall, and whether the count is automatic.
type samplingPlan struct {
	unit time.Duration // 0: no plan
	auto bool
}

// plan is the sampling plan of calibrated batches: iters[c] operations of
// est[c] ns, each batch over[c] ns beyond what is timed. The sequential
// design counts every case's batches as units of their own.
func (c Config) plan(iters []int64, est, over []float64, auto bool) samplingPlan {
	unit := c.unitWall(iters, est, over)
	if c.Design(len(iters)) == ndjson.DesignSequential {
		unit /= float64(len(iters))
	}
	return samplingPlan{unit: time.Duration(unit), auto: auto}
}

// note says what the user should know before sampling count units (each
// case's batches in total of them) of this plan, expected to take took, in
// a budget of the Config field Measurement: that they take longer than it
// when an automatic count kept its fewest (a count above it was fitted to
// the budget); "" otherwise. Fields are spelled by names.
func (p samplingPlan) note(count, total int, took, budget time.Duration, names field.Names) string {
	if !p.auto || count != autoMinSamples || took <= budget {
		return ""
	}
	return fmt.Sprintf("the sampling takes about %v, longer than %s %v: %d units of about %v each, the fewest an automatic count takes (%s sets the count)",
		roundDuration(took), names.Spell("Measurement"), budget, count, roundDuration(time.Duration(total)*p.unit/time.Duration(count)), names.Spell("Samples"))
}

// roundDuration rounds d to about three digits.
func roundDuration(d time.Duration) time.Duration {
	for r := time.Duration(1); r < time.Hour; r *= 10 {
		if d < 1000*r {
			return d.Round(r)
		}
	}
	return d.Round(time.Second)
}

// batchSizes applies the batching policy to per-operation estimates. Equal
// time: each case's own count toward the slice. Shared: one count for
// every case, the one whose unit (every case once) lasts as long as k
// slices, so the slowest case gets at least a slice; at least enough that
// the fastest case's batch reaches the shortest batch allowed, but no
// more than puts the slowest case at eight slices.
func (e *Engine) batchSizes(est []float64, slice int64) ([]int64, []string) {
	k := len(est)
	iters, capped := make([]int64, k), make([]string, k)
	floor := int64(e.Config.MinSample)
	if e.Config.Batching == EqualTime {
		for c := range est {
			iters[c], capped[c] = e.limit(toward(slice, floor, est[c]))
		}
		return iters, capped
	}
	fast, slow, sum := est[0], est[0], 0.0
	for _, v := range est {
		fast, slow, sum = math.Min(fast, v), math.Max(slow, v), sum+v
	}
	n := max(toward(int64(k)*slice, 0, sum), toward(0, floor, fast))
	reason := ""
	if most := int64(float64(sharedCap*slice) / slow); n > most {
		n, reason = max(most, 1), "slower-side"
	}
	n, why := e.limit(n)
	if why != "" {
		reason = why
	}
	for c := range iters {
		iters[c], capped[c] = n, reason
	}
	return iters, capped
}

// toward is the count whose batch lasts about slice, and at least floor.
func toward(slice, floor int64, est float64) int64 {
	n := math.Ceil(float64(slice) / est)
	n = math.Max(n, math.Ceil(float64(floor)/est))
	if n > math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return max(int64(n), 1)
}

func (e *Engine) limit(n int64) (int64, string) {
	if n > e.Config.MaxIterations {
		return e.Config.MaxIterations, "max-iterations"
	}
	return n, ""
}

func perOp(ns, n int64) float64 {
	return math.Max(float64(ns), 1) / float64(n)
}

func clamp(v, lo, hi int64) int64 {
	return max(lo, min(v, hi))
}

package measure

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/internal/gotest"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/internal/workerexec"
	"github.com/flybench/flybench/internal/wproto"
	"github.com/flybench/flybench/pkg/probes"
)

// execOp adapts a prepared command to collect.Operation: n runs.
type execOp struct {
	cmd *runner.Command
	clk probes.Clock
}

func (o execOp) Run(n int64) (int64, error) { return o.cmd.Run(n, o.clk) }
func (o execOp) Kill()                      { o.cmd.Kill() }
func (o execOp) Escaped() int64             { return o.cmd.Escaped() }
func (o execOp) SetLimit(d time.Duration)   { o.cmd.SetLimit(d) }
func (o execOp) LongestRun() time.Duration  { return o.cmd.LongestRun() }
func (o execOp) CPUTime() (int64, error)    { return cpuOf(o.cmd.Usage()), nil }
func (o execOp) SetLayoutPad(n int) error   { return o.cmd.SetLayoutPad(n) }

// cpuOf is a batch's user plus system CPU time from its runs' wait4 rusage,
// which includes the children each run waited for.
func cpuOf(u runner.Usage) int64 { return u.UserNS + u.SystemNS }

// batchOp is one process performing n operations, reporting on fd 3.
type batchOp struct {
	cmd     *runner.Command
	clk     probes.Clock
	primary string // a primary custom axis, or "" for elapsed_ns
	last    wproto.Report
}

func (o *batchOp) Run(n int64) (int64, error) {
	ns, err := o.cmd.Run(n, o.clk)
	if err != nil {
		return 0, err
	}
	rep, err := wproto.ParseReport(o.cmd.Report())
	if err != nil {
		return 0, fmt.Errorf("report channel (fd 3): %w", err)
	}
	if rep.Done != nil && rep.Done.N != n {
		return 0, fmt.Errorf("report channel (fd 3): done %d for a batch of %d", rep.Done.N, n)
	}
	o.last = rep
	return ns, nil
}

func (o *batchOp) Kill()                    { o.cmd.Kill() }
func (o *batchOp) Escaped() int64           { return o.cmd.Escaped() }
func (o *batchOp) SetLimit(d time.Duration) { o.cmd.SetLimit(d) }
func (o *batchOp) LongestRun() time.Duration {
	return o.cmd.LongestRun()
}
func (o *batchOp) CPUTime() (int64, error)  { return cpuOf(o.cmd.Usage()), nil }
func (o *batchOp) SetLayoutPad(n int) error { return o.cmd.SetLayoutPad(n) }

// Reported is the last batch's custom axis fields.
func (o *batchOp) Reported() map[string]string {
	if o.last.Done == nil {
		return nil
	}
	return o.last.Done.Values
}

// SelfElapsed is the last batch's own elapsed time.
func (o *batchOp) SelfElapsed() (float64, error) {
	if o.last.Done == nil {
		return 0, errors.New("the batch wrote no done line on its report channel (fd 3), but earlier batches reported their elapsed time")
	}
	return selfElapsed(o.last.Done, o.primary)
}

// selfElapsed reads the primary timer from a done line.
func selfElapsed(d *wproto.Done, primary string) (float64, error) {
	if primary != "" {
		raw, ok := d.Values[primary]
		if !ok {
			return 0, fmt.Errorf("primary timer %s missing from %q", primary, d.String())
		}
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil || v < 0 {
			return 0, fmt.Errorf("primary timer %s=%q is not a finite non-negative number", primary, raw)
		}
		return v, nil
	}
	if d.ElapsedNS == nil {
		return 0, fmt.Errorf("no elapsed_ns in %q, though the run is timed by it", d.String())
	}
	return *d.ElapsedNS, nil
}

// workerOp is one case of a long-lived worker.
type workerOp struct {
	w       *workerexec.Worker
	ref     workerRef // w, as Kill sees it
	name    string
	clk     probes.Clock
	primary string
	last    wproto.Done
	meter   *cpuMeter // the CPU timer: reads the worker's CPU time around each request
	cpu     int64     // CPU time of the last request, with meter
}

func (o *workerOp) Run(n int64) (int64, error) {
	if o.meter == nil {
		return o.run(n)
	}
	wall, cpu, err := o.meter.around(o.w.Pid(), o.w.Argv(), func() (int64, error) { return o.run(n) })
	o.cpu = cpu
	return wall, err
}

func (o *workerOp) run(n int64) (int64, error) {
	start := o.clk.Now()
	d, err := o.w.Run(o.name, n)
	if err != nil {
		return 0, err
	}
	o.last = d
	return o.clk.Now() - start, nil
}

func (o *workerOp) Kill()                         { o.ref.get().Kill() }
func (o *workerOp) CPUTime() (int64, error)       { return o.cpu, nil }
func (o *workerOp) Reported() map[string]string   { return o.last.Values }
func (o *workerOp) SelfElapsed() (float64, error) { return selfElapsed(&o.last, o.primary) }

// setWorker points the case at w, a fresh worker.
func (o *workerOp) setWorker(w *workerexec.Worker) {
	o.w = w
	o.ref.set(w)
}

// gotestOp is one `go test` benchmark run of n iterations per batch.
type gotestOp struct {
	cmd   *runner.Command
	spec  gotest.Spec
	clk   probes.Clock
	decls []custom.Descriptor
	last  gotest.Result
}

func (o *gotestOp) Run(n int64) (int64, error) {
	ns, err := o.cmd.Run(n, o.clk)
	if err != nil {
		return 0, fmt.Errorf("%w\n%s", err, o.cmd.Report())
	}
	r, err := gotest.Parse(o.cmd.Report(), o.spec, n)
	if err != nil {
		return 0, err
	}
	o.last = r
	return ns, nil
}

func (o *gotestOp) Kill()                         { o.cmd.Kill() }
func (o *gotestOp) Escaped() int64                { return o.cmd.Escaped() }
func (o *gotestOp) SetLimit(d time.Duration)      { o.cmd.SetLimit(d) }
func (o *gotestOp) LongestRun() time.Duration     { return o.cmd.LongestRun() }
func (o *gotestOp) SelfElapsed() (float64, error) { return o.last.ElapsedNS(), nil }

// Reported turns the last result's metrics into the declared axes' fields.
func (o *gotestOp) Reported() map[string]string {
	out := map[string]string{}
	for unit, v := range o.last.Metrics {
		out[gotest.AxisName(unit)] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return out
}

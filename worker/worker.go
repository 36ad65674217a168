package worker

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/flybench/flybench/internal/axes"
)

// Worker holds the cases and axes of a worker program. Register them, then
// call Main or Serve. Registration panics on a mistake (a bad or duplicate
// name, a nil function, a bad axis declaration), as it is a programming
// error found on the first run.
type Worker struct {
	cases  []*entry
	byName map[string]*entry
	axes   []*axis
	runtim bool      // RuntimeAxes was called
	retain bool      // RetainedAxis was called
	sink   func(any) // replaces KeepAlive in tests
}

// entry is one case.
type entry struct {
	name     string
	fn       func(n int)
	result   func(n int) any
	setup    func()
	teardown func()
	units    float64 // work units per operation, 0 when not declared
	// equalTime is set by SizeIndependent.
	equalTime bool
}

// New returns a worker without cases.
func New() *Worker { return &Worker{byName: map[string]*entry{}} }

// Case registers a case: fn performs n logical operations.
func (w *Worker) Case(name string, fn func(n int)) {
	if fn == nil {
		panic(fmt.Sprintf("worker: case %q: nil function", name))
	}
	w.add(&entry{name: name, fn: fn})
}

// CaseResult registers a case whose n operations produce a result, which
// the worker passes to KeepAlive after the ending timestamp so that the
// computation cannot be optimized away.
func (w *Worker) CaseResult(name string, fn func(n int) any) {
	if fn == nil {
		panic(fmt.Sprintf("worker: case %q: nil function", name))
	}
	w.add(&entry{name: name, result: fn})
}

// CaseHooks registers a case with an untimed setup before each batch and
// an untimed teardown after it; teardown also runs when fn panics. Either
// hook may be nil.
func (w *Worker) CaseHooks(name string, setup func(), fn func(n int), teardown func()) {
	if fn == nil {
		panic(fmt.Sprintf("worker: case %q: nil function", name))
	}
	w.add(&entry{name: name, fn: fn, setup: setup, teardown: teardown})
}

// WorkUnits declares the logical work one operation of a registered case
// completes (items processed, requests served), which gives the case a
// throughput view (work units per second); fb-pair --work-units, when
// given, takes precedence. It panics on an unknown case or a units value
// that is not a positive finite number.
func (w *Worker) WorkUnits(name string, units float64) {
	e := w.byName[name]
	switch {
	case e == nil:
		panic(fmt.Sprintf("worker: WorkUnits of unregistered case %q", name))
	case !(units > 0) || units > 1e300:
		panic(fmt.Sprintf("worker: case %q: work units %g: want a positive number", name, units))
	}
	e.units = units
}

// SizeIndependent declares that the cost of one iteration of a registered
// case does not depend on how many iterations a request asks for: no
// warm-up inside the loop, no allocation whose collection a longer loop
// pays more of, no cache the loop fills. A run whose cases all declare it
// sizes each side's requests toward an equal timed slice; otherwise every
// side of a pair runs the same n (man fb-worker(7), BATCH SIZES). It
// panics on an unknown case.
func (w *Worker) SizeIndependent(name string) {
	e := w.byName[name]
	if e == nil {
		panic(fmt.Sprintf("worker: SizeIndependent of unregistered case %q", name))
	}
	e.equalTime = true
}

func (w *Worker) add(e *entry) {
	if err := axes.ValidName(e.name); err != nil {
		panic("worker: case " + err.Error())
	}
	if w.byName[e.name] != nil {
		panic(fmt.Sprintf("worker: case %q registered twice", e.name))
	}
	w.cases = append(w.cases, e)
	w.byName[e.name] = e
}

// Main speaks the protocol on stdin and stdout and returns the exit
// status: 0 after quit or the end of stdin, 1 when writing an answer
// fails, 2 when the harness sends something out of protocol. Messages go
// to stderr.
func (w *Worker) Main() int {
	err := w.Serve(os.Stdin, os.Stdout)
	if err == nil {
		return 0
	}
	fmt.Fprintf(os.Stderr, "%s: %v\n", filepath.Base(os.Args[0]), err)
	if errors.As(err, new(*RequestError)) {
		return 2
	}
	return 1
}

// RequestError is a request out of protocol.
type RequestError struct{ Line, Msg string }

func (e *RequestError) Error() string { return fmt.Sprintf("bad request %q: %s", e.Line, e.Msg) }

// Serve writes the handshake to out, then runs the requests read from in
// until quit (nil) or the end of in (nil). It returns a *RequestError for
// a request out of protocol and the error of out when writing fails.
func (w *Worker) Serve(in io.Reader, out io.Writer) error {
	if len(w.cases) == 0 {
		return errors.New("no case registered")
	}
	m := newMeter(w.axes)
	if w.sink != nil {
		m.sink = w.sink
	}
	if w.runtim {
		// One collection before the first batch, so that live_heap has a
		// latest collection to report even in a worker that never
		// allocates enough to start one.
		runtime.GC()
	}
	bw := bufio.NewWriter(out)
	br := bufio.NewReader(in)
	bw.WriteString(w.handshake())
	for {
		if err := bw.Flush(); err != nil {
			return err
		}
		line, err := br.ReadSlice('\n')
		if err == io.EOF && len(line) == 0 {
			return nil
		}
		if err != nil {
			return &RequestError{Line: string(line), Msg: "not a whole line: " + err.Error()}
		}
		name, n, quit, err := parseRequest(line[:len(line)-1])
		if err != nil || quit {
			return err
		}
		e := w.byName[string(name)]
		if e == nil {
			bw.Write(appendFailure(nil, string(name), "unknown case"))
			continue
		}
		bw.Write(m.answer(e, n))
	}
}

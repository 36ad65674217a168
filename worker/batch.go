package worker

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"time"
)

// meter runs batches and formats their answers, reusing its buffers so
// that the worker allocates little between batches.
type meter struct {
	axes       []*axis
	begin, end []Reading
	rt         *runtimeReader // nil without RuntimeAxes
	sink       func(any)      // KeepAlive; tests observe it
	retained   int            // the retained axis's index in axes, -1 without it
	liveBefore uint64         // the live heap after the collection before the batch
	liveOK     bool
	elapsed    time.Duration
	buf        []byte
}

func newMeter(axes []*axis) *meter {
	m := &meter{axes: axes, begin: make([]Reading, len(axes)), end: make([]Reading, len(axes)), sink: KeepAlive, retained: -1}
	for i, a := range axes {
		if a.runtime == retainedAxis {
			m.retained = i
		}
	}
	for _, a := range axes {
		if a.runtime >= 0 {
			m.rt = newRuntimeReader()
			break
		}
	}
	return m
}

// answer runs one batch of case e and returns its answer line.
func (m *meter) answer(e *entry, n int) []byte {
	if err := m.batch(e, n); err != nil {
		m.buf = appendFailure(m.buf[:0], e.name, err.Error())
		return m.buf
	}
	b := append(m.buf[:0], "done "...)
	b = append(b, e.name...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, " elapsed_ns="...)
	b = strconv.AppendInt(b, m.elapsed.Nanoseconds(), 10)
	for i, a := range m.axes {
		b = m.appendAxis(b, i, a)
	}
	m.buf = append(b, '\n')
	return m.buf
}

// appendAxis appends an axis's field, or nothing when a read failed.
func (m *meter) appendAxis(b []byte, i int, a *axis) []byte {
	end := m.end[i]
	if !end.OK || a.cumulative && !m.begin[i].OK {
		return b
	}
	b = append(b, ' ')
	b = append(b, a.decl.Name...)
	b = append(b, '=')
	if a.cumulative {
		b = strconv.AppendInt(b, m.begin[i].Count, 10)
		b = append(b, ':')
		return strconv.AppendInt(b, end.Count, 10)
	}
	return strconv.AppendFloat(b, end.Value, 'g', -1, 64)
}

// batch runs setup, the timed case between axis reads, and teardown, each
// protected so that a panic becomes an error; teardown runs even when the
// case panicked.
func (m *meter) batch(e *entry, n int) error {
	if err := protect("setup", e.setup); err != nil {
		return err
	}
	err := protect("", func() { m.measure(e, n) })
	if terr := protect("teardown", e.teardown); err == nil {
		err = terr
	}
	return err
}

// measure reads the axes, times the n operations, reads the axes again,
// and sinks the result: only the case itself is between the clock reads.
func (m *meter) measure(e *entry, n int) {
	if m.retained >= 0 {
		runtime.GC()
		m.liveBefore, m.liveOK = liveHeapNow()
	}
	m.readBegin()
	if e.result != nil {
		t0 := time.Now()
		r := e.result(n)
		m.elapsed = time.Since(t0)
		m.sink(r)
	} else {
		t0 := time.Now()
		e.fn(n)
		m.elapsed = time.Since(t0)
	}
	m.readEnd()
	if m.retained >= 0 {
		m.end[m.retained] = m.retainedReading()
	}
}

// retainedReading collects the garbage the batch left and reads how much
// the live heap grew over it, after the readings of the other axes (so
// gc_cycles does not count this collection).
func (m *meter) retainedReading() Reading {
	runtime.GC()
	after, ok := liveHeapNow()
	if !ok || !m.liveOK {
		return Reading{}
	}
	return Value(float64(int64(after) - int64(m.liveBefore)))
}

func (m *meter) readBegin() {
	for i, a := range m.axes {
		if a.cumulative && a.runtime < 0 {
			m.begin[i] = a.read()
		}
	}
	if m.rt != nil { // last, nearest the clock read
		metrics.Read(m.rt.begin)
		for i, a := range m.axes {
			if a.runtime >= 0 {
				m.begin[i] = reading(m.rt.begin[a.runtime])
			}
		}
	}
}

func (m *meter) readEnd() {
	if m.rt != nil { // first, nearest the clock read
		metrics.Read(m.rt.end)
	}
	for i, a := range m.axes {
		switch {
		case a.runtime >= 0:
			m.end[i] = reading(m.rt.end[a.runtime])
			if a.runtime == liveHeap && !m.rt.collected() {
				m.end[i] = Reading{} // no collection yet: nothing has been marked live
			}
		case a.runtime == retainedAxis: // filled after the other reads
		default:
			m.end[i] = a.read()
		}
	}
}

// protect calls f, turning a panic into an error and writing its stack to
// stderr. stage names a hook; "" is the case itself.
func protect(stage string, f func()) (err error) {
	if f == nil {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			what := "panic"
			if stage != "" {
				what = stage + " panic"
			}
			err = fmt.Errorf("%s: %v", what, r)
			fmt.Fprintf(stderr, "%v\n%s", err, debug.Stack())
		}
	}()
	f()
	return nil
}

// stderr receives the stacks of panics; tests quiet it.
var stderr io.Writer = os.Stderr

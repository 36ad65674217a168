// Package hostload reads the host's cumulative CPU time counters from
// /proc/stat and turns two readings into utilization: the host-wide busy
// share, each logical CPU's, and busy time over a set of CPUs. It is
// shared by fb-gate's quiescence preflight and the interference watch.
package hostload

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// TickNS is the length of one /proc/stat tick. The kernel reports CPU time
// in USER_HZ units, which Linux fixes at 100 per second on every
// architecture whatever its internal CONFIG_HZ, so one tick is 10 ms.
const TickNS = 10_000_000

// CPUTimes is where one CPU's (or every CPU's) time went, in nanoseconds
// since boot. Guest time is already inside User and Nice, as the kernel
// counts it, so it is not kept separately.
type CPUTimes struct {
	User, Nice, System, Idle, IOWait, IRQ, SoftIRQ, Steal int64
}

// Total is all the time counted. It saturates at math.MaxInt64, which
// only the aggregate line of a very large, long-running host can reach.
func (t CPUTimes) Total() int64 {
	var sum int64
	for _, p := range t.fields() {
		if *p > math.MaxInt64-sum {
			return math.MaxInt64
		}
		sum += *p
	}
	return sum
}

// Busy is the time the CPU was not idle: Total minus Idle and IOWait.
// Steal counts as busy: the CPU was not available to this host's tasks.
func (t CPUTimes) Busy() int64 {
	return t.Total() - t.Idle - t.IOWait
}

// fields lists the counters in /proc/stat column order.
func (t *CPUTimes) fields() []*int64 {
	return []*int64{&t.User, &t.Nice, &t.System, &t.Idle, &t.IOWait, &t.IRQ, &t.SoftIRQ, &t.Steal}
}

// Snapshot is one reading of /proc/stat.
type Snapshot struct {
	// Total is the aggregate "cpu" line. On a machine of hundreds of CPUs
	// up for years its sums can exceed an int64 of nanoseconds; they
	// saturate at math.MaxInt64. Utilization and BusyNS use the per-CPU
	// lines only.
	Total CPUTimes
	// CPUs holds the online logical CPUs by id ("cpu3" is 3). Offline
	// CPUs have no line.
	CPUs map[int]CPUTimes
}

// IDs lists the snapshot's CPU ids in increasing order.
func (s Snapshot) IDs() []int {
	ids := make([]int, 0, len(s.CPUs))
	for id := range s.CPUs {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids
}

// SyntaxError is a /proc/stat line that could not be read.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// minFields is user, nice, system and idle; kernels since 2.6.11 print
// all eight columns kept here, and since 2.6.33 guest and guest_nice too.
const minFields = 4

// Read parses /proc/stat text: the block of cpu lines that opens it. It
// stops at the first other line, so the long interrupt lines after the
// block are never read. Both the aggregate line and at least one per-CPU
// line must be present.
func Read(r io.Reader) (Snapshot, error) {
	s := Snapshot{CPUs: map[int]CPUTimes{}}
	total := false
	err := cpuLines(r, func(n int, line string) error {
		id, t, err := parseLine(line)
		if err != nil {
			return &SyntaxError{Line: n, Msg: err.Error()}
		}
		if _, dup := s.CPUs[id]; dup || (id < 0 && total) {
			return &SyntaxError{Line: n, Msg: label(id) + " appears twice"}
		}
		if id < 0 {
			s.Total, total = t, true
		} else {
			s.CPUs[id] = t
		}
		return nil
	})
	switch {
	case err != nil:
		return Snapshot{}, err
	case !total:
		return Snapshot{}, errors.New("no aggregate cpu line")
	case len(s.CPUs) == 0:
		return Snapshot{}, errors.New("no per-CPU lines")
	}
	return s, nil
}

// cpuLines calls fn with each line of the leading block of lines that
// start with "cpu", numbered from 1, without reading past the block.
func cpuLines(r io.Reader, fn func(n int, line string) error) error {
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		prefix, err := br.Peek(len("cpu"))
		if err != nil && err != io.EOF {
			return err
		}
		if string(prefix) != "cpu" {
			return nil
		}
		line, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return err
		}
		if ferr := fn(n, strings.TrimSuffix(line, "\n")); ferr != nil {
			return ferr
		}
		if err == io.EOF {
			return nil
		}
	}
}

func label(id int) string {
	if id < 0 {
		return "the aggregate cpu line"
	}
	return "cpu" + strconv.Itoa(id)
}

// parseLine reads "cpu ..." (id -1) or "cpuN ...".
func parseLine(line string) (int, CPUTimes, error) {
	words := strings.Fields(line)
	id := -1
	if name := words[0]; name != "cpu" {
		n, err := strconv.Atoi(name[len("cpu"):])
		if err != nil || n < 0 || name[len("cpu")] == '+' {
			return 0, CPUTimes{}, fmt.Errorf("%q is not a cpu name", name)
		}
		id = n
	}
	if len(words)-1 < minFields {
		return 0, CPUTimes{}, fmt.Errorf("%s has %d counters, want at least %d", label(id), len(words)-1, minFields)
	}
	var t CPUTimes
	for i, p := range t.fields() {
		if i+1 >= len(words) {
			break
		}
		v, err := ticksToNS(words[i+1], id < 0)
		if err != nil {
			return 0, CPUTimes{}, fmt.Errorf("%s column %d: %v", label(id), i+1, err)
		}
		*p = v
	}
	if id >= 0 && t.Total() == math.MaxInt64 {
		return 0, CPUTimes{}, fmt.Errorf("%s counts more time than an int64 of nanoseconds holds", label(id))
	}
	return id, t, nil
}

// ticksToNS converts a tick count. A per-CPU value too large for an int64
// of nanoseconds (292 years) is corrupt; an aggregate one saturates.
func ticksToNS(word string, saturate bool) (int64, error) {
	v, err := strconv.ParseUint(word, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a tick count", word)
	}
	if v > math.MaxInt64/TickNS {
		if saturate {
			return math.MaxInt64, nil
		}
		return 0, fmt.Errorf("%d ticks is more than an int64 of nanoseconds holds", v)
	}
	return int64(v) * TickNS, nil
}

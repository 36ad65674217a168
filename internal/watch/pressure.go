package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Pressure reads the kernel's cumulative pressure stall information:
// for each resource, the microseconds during which some task, and during
// which every non-idle task, was stalled waiting for it.
type Pressure interface {
	Read() (StallTotals, error)
}

// StallTotals are cumulative stall times in microseconds, some and full,
// for the CPU, memory and I/O, in that order.
type StallTotals struct {
	Some, Full [3]int64
}

// pressureFiles are the files under /proc/pressure, in StallTotals order.
var pressureFiles = [3]string{"cpu", "memory", "io"}

// ProcPressure reads /proc/pressure/{cpu,memory,io} under Root (the file
// system root, or a fixture).
type ProcPressure struct{ Root fs.FS }

// Read parses the three files' some and full totals. A kernel without
// PSI (CONFIG_PSI off, or psi=0 on its command line) has no such files;
// the error says which could not be read.
func (p ProcPressure) Read() (StallTotals, error) {
	var t StallTotals
	for i, name := range pressureFiles {
		data, err := fs.ReadFile(p.Root, "proc/pressure/"+name)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return t, fmt.Errorf("/proc/pressure/%s does not exist: the kernel keeps no pressure stall information (CONFIG_PSI, or psi=0)", name)
			}
			return t, fmt.Errorf("read /proc/pressure/%s: %w", name, err)
		}
		if t.Some[i], t.Full[i], err = parseStall(string(data)); err != nil {
			return t, fmt.Errorf("/proc/pressure/%s: %w", name, err)
		}
	}
	return t, nil
}

// parseStall reads the total= fields of a pressure file's some and full
// lines ("some avg10=0.00 avg60=0.00 avg300=0.00 total=1234"). Kernels
// before 5.13 have no full line for the CPU: full is then 0, which is
// what later kernels report for it system-wide.
func parseStall(text string) (some, full int64, err error) {
	seen := false
	for line := range strings.SplitSeq(strings.TrimSpace(text), "\n") {
		kind, rest, _ := strings.Cut(line, " ")
		var total int64 = -1
		for f := range strings.FieldsSeq(rest) {
			if v, ok := strings.CutPrefix(f, "total="); ok {
				if total, err = strconv.ParseInt(v, 10, 64); err != nil || total < 0 {
					return 0, 0, fmt.Errorf("line %q: total %q is not a count of microseconds", line, v)
				}
			}
		}
		if total < 0 {
			return 0, 0, fmt.Errorf("line %q has no total", line)
		}
		switch kind {
		case "some":
			some, seen = total, true
		case "full":
			full = total
		}
	}
	if !seen {
		return 0, 0, errors.New("no some line")
	}
	return some, full, nil
}

// pressureOver is the share of wall ns each resource's stall totals grew
// by between a and b, in percent.
func pressureOver(a, b StallTotals, wall int64) *ndjson.Pressure {
	share := func(d int64) float64 { return min(100, max(0, 100*float64(d)*1000/float64(wall))) }
	return &ndjson.Pressure{
		CPUSomePct: share(b.Some[0] - a.Some[0]), CPUFullPct: share(b.Full[0] - a.Full[0]),
		MemorySomePct: share(b.Some[1] - a.Some[1]), MemoryFullPct: share(b.Full[1] - a.Full[1]),
		IOSomePct: share(b.Some[2] - a.Some[2]), IOFullPct: share(b.Full[2] - a.Full[2]),
	}
}

package record

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Proc reads a process's (or a group's) cumulative CPU time and resident
// memory now.
type Proc interface {
	Read() (cpuNS, rssBytes int64, err error)
}

// Sampler turns readings of fb-record itself and of the observed program
// into process records: CPU as the share of one core since the previous
// sample, in percent.
type Sampler struct {
	Self    Proc
	Program Proc // nil when there is no observed program
	lastAt  int64
	self    int64
	prog    int64
}

// Start takes the baseline at time at (ns since the recording started);
// the program's baseline is 0, as it starts then.
func (s *Sampler) Start(at int64) {
	s.lastAt = at
	s.self, _, _ = s.Self.Read()
}

// Sample reads both at time at. A program that cannot be read (it has
// exited) leaves its fields out.
func (s *Sampler) Sample(at int64) ndjson.ProcessUsage {
	u := ndjson.ProcessUsage{AtNS: at}
	span := float64(at - s.lastAt)
	s.lastAt = at
	pct := func(now, before int64) float64 {
		if span <= 0 {
			return 0
		}
		return float64(max(now-before, 0)) / span * 100
	}
	if cpu, rss, err := s.Self.Read(); err == nil {
		u.RecorderCPU, u.RecorderRSS = pct(cpu, s.self), rss
		s.self = cpu
	}
	if s.Program != nil {
		if cpu, rss, err := s.Program.Read(); err == nil {
			u.ProgramCPU, u.ProgramRSS = pct(cpu, s.prog), rss
			s.prog = cpu
		}
	}
	return u
}

// SelfProc is this process: getrusage(RUSAGE_SELF) and
// /proc/self/statm (RSS 0 where there is no /proc).
type SelfProc struct{}

func (SelfProc) Read() (int64, int64, error) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, err
	}
	cpu := unix.TimevalToNsec(ru.Utime) + unix.TimevalToNsec(ru.Stime)
	var rss int64
	if data, err := os.ReadFile("/proc/self/statm"); err == nil {
		if f := bytes.Fields(data); len(f) > 1 {
			pages, _ := strconv.ParseInt(string(f[1]), 10, 64)
			rss = pages * int64(os.Getpagesize())
		}
	}
	return cpu, rss, nil
}

// userHZ is the unit of /proc/PID/stat's CPU times on Linux.
const userHZ = 100

// GroupProc is every live process of one process group, read from
// /proc/PID/stat: the sum of their user and system times and of the
// children they have reaped (so a child's CPU stays counted after it
// exits), in 10 ms ticks, and the sum of their resident sets (pages
// shared between them count once per process).
type GroupProc struct {
	PGID int
	// Proc is the /proc file system (os.DirFS("/proc"), or a fixture).
	Proc fs.FS
}

func (g GroupProc) Read() (int64, int64, error) {
	entries, err := fs.ReadDir(g.Proc, ".")
	if err != nil {
		return 0, 0, err
	}
	var ticks, pages int64
	members := 0
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		data, err := fs.ReadFile(g.Proc, e.Name()+"/stat")
		if err != nil {
			continue // exited meanwhile
		}
		if t, p, ok := groupStat(data, g.PGID); ok {
			ticks, pages, members = ticks+t, pages+p, members+1
		}
	}
	if members == 0 {
		return 0, 0, fmt.Errorf("process group %d has no live process", g.PGID)
	}
	return ticks * (1e9 / userHZ), pages * int64(os.Getpagesize()), nil
}

// groupStat reads utime+stime+cutime+cstime and rss of a /proc/PID/stat
// line whose process group is pgid.
func groupStat(data []byte, pgid int) (ticks, pages int64, ok bool) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(data[i+1:]) // f[0] is field 3, state
	if len(f) < 22 {
		return 0, 0, false
	}
	if g, err := strconv.Atoi(string(f[2])); err != nil || g != pgid {
		return 0, 0, false
	}
	for _, k := range []int{11, 12, 13, 14} { // utime, stime, cutime, cstime
		n, err := strconv.ParseInt(string(f[k]), 10, 64)
		if err != nil {
			return 0, 0, false
		}
		ticks += n
	}
	pages, err := strconv.ParseInt(string(f[21]), 10, 64) // rss
	return ticks, pages, err == nil
}

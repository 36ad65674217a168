package record

import (
	"errors"
	"os"
	"testing"
	"testing/fstest"

	"golang.org/x/sys/unix"
)

type fakeProc struct {
	cpu, rss []int64
	i        int
}

func (p *fakeProc) Read() (int64, int64, error) {
	if p.i == len(p.cpu) {
		return 0, 0, errors.New("gone")
	}
	p.i++
	return p.cpu[p.i-1], p.rss[p.i-1], nil
}

func TestSamplerSharesOfACore(t *testing.T) {
	self := &fakeProc{cpu: []int64{1e8, 3e8, 4e8}, rss: []int64{0, 10, 20}}
	prog := &fakeProc{cpu: []int64{15e8}, rss: []int64{300}}
	s := Sampler{Self: self, Program: prog}
	s.Start(0)
	u := s.Sample(1e9)
	if u.RecorderCPU != 20 || u.RecorderRSS != 10 || u.ProgramCPU != 150 || u.ProgramRSS != 300 || u.AtNS != 1e9 {
		t.Fatalf("first sample %+v", u)
	}
	u = s.Sample(2e9) // the program has exited
	if u.RecorderCPU != 10 || u.ProgramCPU != 0 || u.ProgramRSS != 0 {
		t.Fatalf("second sample %+v", u)
	}
}

// stat builds a /proc/PID/stat line: pgrp, utime, stime, cutime, cstime, rss.
func stat(comm string, pgrp, ut, st, cut, cst, rss string) *fstest.MapFile {
	line := "7 (" + comm + ") S 1 " + pgrp + " 7 0 -1 0 0 0 0 0 " + ut + " " + st + " " + cut + " " + cst + " 20 0 1 0 100 1000 " + rss + " 0 0\n"
	return &fstest.MapFile{Data: []byte(line)}
}

func TestGroupProcSumsTheGroup(t *testing.T) {
	fsys := fstest.MapFS{
		"100/stat":  stat("sh", "100", "10", "5", "20", "1", "50"),
		"101/stat":  stat("a) b", "100", "3", "2", "0", "0", "25"), // a command name with ") "
		"200/stat":  stat("other", "200", "99", "99", "99", "99", "99"),
		"self/stat": stat("x", "100", "1", "1", "1", "1", "1"),
		"101/other": {Data: []byte("x")},
	}
	cpu, rss, err := GroupProc{PGID: 100, Proc: fsys}.Read()
	if err != nil {
		t.Fatal(err)
	}
	if cpu != (10+5+20+1+3+2)*1e7 || rss != 75*int64(os.Getpagesize()) {
		t.Fatalf("cpu %d rss %d", cpu, rss)
	}
	if _, _, err := (GroupProc{PGID: 300, Proc: fsys}).Read(); err == nil {
		t.Fatal("an empty group read as a value")
	}
}

func TestRealProcesses(t *testing.T) {
	cpu, rss, err := SelfProc{}.Read()
	if err != nil || cpu <= 0 {
		t.Fatalf("self cpu %d: %v", cpu, err)
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	if rss <= 0 {
		t.Fatalf("self rss %d", rss)
	}
	_, grss, err := GroupProc{PGID: pgid(t), Proc: os.DirFS("/proc")}.Read()
	if err != nil || grss <= 0 {
		t.Fatalf("own group: rss %d: %v", grss, err)
	}
}

func pgid(t *testing.T) int {
	g, err := unix.Getpgid(0)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

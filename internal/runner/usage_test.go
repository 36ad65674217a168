package runner

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/probes"
)

// TestHelperAlloc is not a test: run as a child with FLYBENCH_ALLOC_MIB set,
// it touches that many MiB and exits, so a batch has a known peak RSS.
func TestHelperAlloc(t *testing.T) {
	mib, err := strconv.Atoi(os.Getenv("FLYBENCH_ALLOC_MIB"))
	if err != nil {
		return
	}
	buf := make([]byte, mib<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	if buf[len(buf)-1] == 1 { // never true; keeps the touched buffer alive
		os.Exit(1)
	}
	os.Exit(0)
}

func allocCommand(t *testing.T, mib int) *Command {
	t.Helper()
	env := append(os.Environ(), "FLYBENCH_ALLOC_MIB="+strconv.Itoa(mib))
	c, err := New(Options{Argv: []string{os.Args[0], "-test.run=^TestHelperAlloc$"}, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Peak RSS comes from each child's own wait4 rusage, so a small command
// measured right after a large one reports its own small peak; a
// RUSAGE_CHILDREN high-water mark would report the large one's.
func TestPeakRSSIsTheOperationsOwn(t *testing.T) {
	large, small := allocCommand(t, 96), allocCommand(t, 1)
	if _, err := large.Run(1, probes.Monotonic{}); err != nil {
		t.Fatal(err)
	}
	if _, err := small.Run(2, probes.Monotonic{}); err != nil {
		t.Fatal(err)
	}
	big, little := large.Usage().MaxRSSKiB, small.Usage().MaxRSSKiB
	if big < 96<<10 {
		t.Fatalf("large command peak %d KiB, want at least 96 MiB", big)
	}
	if little > big/3 {
		t.Fatalf("small command after a large one reports %d KiB (large %d KiB): not its own peak", little, big)
	}
	if u := small.Usage(); u.Runs != 2 || u.UserNS+u.SystemNS <= 0 || u.MinorFaults <= 0 {
		t.Fatalf("usage %+v", u)
	}
}

// /proc/PID/io is read after the child exits and before it is reaped.
func TestReadIOCountsWrittenBytes(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "out")
	c, err := New(Options{Argv: []string{"/bin/sh", "-c", "head -c 1048576 /dev/zero > " + target + " && sync"}, ReadIO: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Run(1, probes.Monotonic{}); err != nil {
		t.Fatal(err)
	}
	u := c.Usage()
	if u.IOErr != nil {
		t.Fatalf("io not read: %v", u.IOErr)
	}
	if fsType(dir) == "tmpfs" {
		t.Skipf("%s is tmpfs, which does no storage I/O", dir)
	}
	if u.WriteBytes < 1<<20 {
		t.Fatalf("write_bytes %d for a 1 MiB file", u.WriteBytes)
	}
}

// fsType is the filesystem type of the mount holding dir ("" if unknown).
func fsType(dir string) string {
	data, err := os.ReadFile("/proc/self/mounts")
	if err != nil {
		return ""
	}
	best, typ := "", ""
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && len(f[1]) > len(best) && (dir == f[1] || strings.HasPrefix(dir, strings.TrimSuffix(f[1], "/")+"/")) {
			best, typ = f[1], f[2]
		}
	}
	return typ
}

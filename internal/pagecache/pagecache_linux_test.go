package pagecache

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// scratch writes a file of n pages in a directory whose filesystem drops
// pages on request; a tmpfs holds its files in memory for good, so the
// test skips there, saying so.
func scratch(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	var fs unix.Statfs_t
	if err := unix.Statfs(dir, &fs); err == nil && fs.Type == unix.TMPFS_MAGIC {
		t.Skipf("%s is a tmpfs: its pages are the file and cannot be dropped", dir)
	}
	path := filepath.Join(dir, "prog")
	data := make([]byte, n*PageSize)
	for i := range data {
		data[i] = byte(i * 7)
	}
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDropWrittenFile: a file just written is resident and dirty; Drop
// writes it back and leaves none of it cached.
func TestDropWrittenFile(t *testing.T) {
	path := scratch(t, 64)
	r := Drop(path)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if r.Pages != 64 || r.Before != 64 || r.After != 0 || !r.Dropped() {
		t.Errorf("got %+v, want 64 pages, 64 resident before, 0 after", r)
	}
	if _, err := os.ReadFile(path); err != nil { // read back: resident again
		t.Fatal(err)
	}
	if got := count(t, path); got != 64 {
		t.Errorf("after reading it back %d of 64 pages resident", got)
	}
}

// TestDropLeavesMappedPages: a page a process maps stays cached, and the
// count after says so.
func TestDropLeavesMappedPages(t *testing.T) {
	path := scratch(t, 16)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := unix.Mmap(int(f.Fd()), 0, 16*PageSize, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	for i := 0; i < 4; i++ { // fault in the first four pages
		sink += int(m[i*PageSize])
	}
	r := Drop(path)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if r.After < 4 || r.Dropped() {
		t.Errorf("got %+v: the 4 mapped pages should stay", r)
	}
}

// TestDropErrors: a missing file and a directory are refused with the
// path, and counted as unknown.
func TestDropErrors(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{filepath.Join(dir, "missing"), dir} {
		r := Drop(p)
		if r.Err == nil || r.Before != -1 || r.After != -1 || r.Dropped() {
			t.Errorf("Drop(%q) = %+v, want an error and unknown counts", p, r)
		}
	}
}

// sink keeps the page reads that fault pages in.
var sink int

func count(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	return Resident(f, st.Size())
}

// framesOf reads the file at path through a mapping, touching every page,
// and returns the physical frames that hold it (from /proc/self/pagemap,
// whose frame numbers only a privileged process sees); it skips the test
// where they cannot be read.
func framesOf(t *testing.T, path string, n int) map[uint64]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := unix.Mmap(int(f.Fd()), 0, n*PageSize, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	var sum byte
	for i := 0; i < len(m); i += PageSize {
		sum += m[i]
	}
	touched = sum // kept, so the reads that fault the pages in are not optimized away
	pm, err := os.Open("/proc/self/pagemap")
	if err != nil {
		t.Skipf("no pagemap: %v", err)
	}
	defer pm.Close()
	base := uint64(uintptr(unsafe.Pointer(&m[0]))) / PageSize
	frames := map[uint64]bool{}
	entry := make([]byte, 8)
	for i := 0; i < n; i++ {
		if _, err := pm.ReadAt(entry, int64((base+uint64(i))*8)); err != nil {
			t.Skipf("pagemap: %v", err)
		}
		e := binary.LittleEndian.Uint64(entry)
		pfn := e & (1<<55 - 1)
		if e>>63 == 0 || pfn == 0 {
			t.Skipf("pagemap gives no frame numbers here (unprivileged?): entry %#x", e)
		}
		frames[pfn] = true
	}
	return frames
}

var touched byte

func shared(a, b map[uint64]bool) int {
	k := 0
	for f := range a {
		if b[f] {
			k++
		}
	}
	return k
}

// TestBallastMovesPages: a file dropped and read back with a ballast held
// in between lands in other physical pages than it left. (Without one,
// the kernel tends to hand the freed pages straight back; that is logged,
// not asserted: it is the allocator's habit, not a promise.)
func TestBallastMovesPages(t *testing.T) {
	const n = 64
	path := scratch(t, n)
	// Drop, ballast and read on one CPU, whose list of freed pages the
	// allocator serves first: a thread moved between them could read its
	// file back from another CPU's list, ballast or not.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var was unix.CPUSet
	if err := unix.SchedGetaffinity(0, &was); err == nil {
		var one unix.CPUSet
		for c := 0; c < 1024; c++ {
			if was.IsSet(c) {
				one.Set(c)
				break
			}
		}
		if unix.SchedSetaffinity(0, &one) == nil {
			defer unix.SchedSetaffinity(0, &was)
		}
	}
	Drop(path)
	before := framesOf(t, path, n)
	Drop(path)
	again := framesOf(t, path, n)
	t.Logf("dropped and read back at once: %d of %d pages in the same frames", shared(before, again), n)
	for round, pages := range []int{300, 1500, MaxBallastPages} {
		prev := framesOf(t, path, n)
		Drop(path)
		release := Ballast(pages)
		now := framesOf(t, path, n)
		release()
		if k := shared(prev, now); 2*k > n {
			t.Errorf("round %d, ballast of %d pages: %d of %d pages back in the frames they left", round, pages, k, n)
		}
	}
}

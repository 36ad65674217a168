package pagecache

import (
	"os"
	"path/filepath"
	"testing"

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

package measure

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/pagecache"
	"github.com/flybench/flybench/pkg/ndjson"
)

// TestProgramFiles: each distinct file once, in case order, a link by the
// file it resolves to, and the cases without a known program by name.
func TestProgramFiles(t *testing.T) {
	m := &measurement{cases: []collect.Case{
		{Name: "a", Program: &ndjson.Program{Path: "/bin/a"}},
		{Name: "py", Program: &ndjson.Program{Path: "/usr/bin/python3", Link: "/usr/bin/python3.11"}},
		{Name: "sh", Program: nil},
		{Name: "a again", Program: &ndjson.Program{Path: "/bin/a"}},
		{Name: "py by its file", Program: &ndjson.Program{Path: "/usr/bin/python3.11"}},
	}}
	files, unknown := m.programFiles()
	if want := []string{"/bin/a", "/usr/bin/python3.11"}; !reflect.DeepEqual(files, want) {
		t.Errorf("files %q, want %q", files, want)
	}
	if want := []string{"sh"}; !reflect.DeepEqual(unknown, want) {
		t.Errorf("unknown %q, want %q", unknown, want)
	}
}

// TestProgramFileThroughLinkedDirectory: a program started through a
// linked directory is the file in the directory the link names, for the
// drop and for deciding whether the sides start different files.
func TestProgramFileThroughLinkedDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "usr"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "usr", "prog")
	if err := os.WriteFile(file, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("usr", filepath.Join(dir, "bin")); err != nil {
		t.Fatal(err)
	}
	direct := collect.Case{Name: "direct", Program: &ndjson.Program{Path: file}}
	linked := collect.Case{Name: "linked", Program: &ndjson.Program{Path: filepath.Join(dir, "bin", "prog")}}
	m := &measurement{plan: &plan{sides: make([]side, 2)}, cases: []collect.Case{direct, linked}}
	real, err := filepath.EvalSymlinks(file) // the temporary directory may itself be reached through a link
	if err != nil {
		t.Fatal(err)
	}
	if files, _ := m.programFiles(); !reflect.DeepEqual(files, []string{real}) {
		t.Errorf("files %q, want %q once", files, real)
	}
	if m.sidesStartDifferentFiles() {
		t.Error("the sides start one file, by two paths: want no rotation")
	}
}

// TestDropProgramsSums: the pages of every file are summed, a file that
// cannot be opened is named with why.
func TestDropProgramsSums(t *testing.T) {
	d := dropPrograms([]string{t.TempDir() + "/missing"})
	if d.Pages != 0 || d.Resident != 0 || d.Left != 0 || len(d.Failed) != 1 {
		t.Errorf("got %+v, want one failure and no pages", d)
	}
}

// TestSidesStartDifferentFiles: two files decide it, a link counts as the
// file it resolves to, a program through the shell is not counted, and
// the reference workload (the last side) is not one of the sides.
func TestSidesStartDifferentFiles(t *testing.T) {
	a := collect.Case{Program: &ndjson.Program{Path: "/b/a"}}
	b := collect.Case{Program: &ndjson.Program{Path: "/b/b"}}
	link := collect.Case{Program: &ndjson.Program{Path: "/b/l", Link: "/b/a"}}
	sh := collect.Case{}
	ref := collect.Case{Program: &ndjson.Program{Path: "/b/fb-refwork"}}
	for _, c := range []struct {
		cases []collect.Case
		ref   bool
		want  bool
	}{
		{[]collect.Case{a, b}, false, true},
		{[]collect.Case{a, a}, false, false},
		{[]collect.Case{a, link}, false, false},
		{[]collect.Case{a, sh}, false, false},
		{[]collect.Case{a, a, ref}, true, false},
		{[]collect.Case{a, b, ref}, true, true},
	} {
		m := &measurement{plan: &plan{sides: make([]side, len(c.cases))}, cases: c.cases}
		if c.ref {
			m.ref = &reference{}
		}
		if got := m.sidesStartDifferentFiles(); got != c.want {
			t.Errorf("%d cases (reference %v): %v, want %v", len(c.cases), c.ref, got, c.want)
		}
	}
}

// TestBallastPages: the ballast of a block is drawn from the seed and the
// block, within 1..MaxBallastPages, again the same for the same pair.
func TestBallastPages(t *testing.T) {
	seen := map[int]bool{}
	for b := 1; b <= 12; b++ {
		n := ballastPages(7, b)
		if n < 1 || n > pagecache.MaxBallastPages {
			t.Fatalf("block %d: %d pages", b, n)
		}
		if n != ballastPages(7, b) {
			t.Fatalf("block %d drew again differently", b)
		}
		seen[n] = true
	}
	if len(seen) < 10 {
		t.Errorf("12 blocks drew %d sizes", len(seen))
	}
	if ballastPages(7, 1) == ballastPages(8, 1) && ballastPages(7, 2) == ballastPages(8, 2) {
		t.Error("two seeds drew the same ballasts")
	}
}

package measure

import (
	"reflect"
	"testing"

	"github.com/flybench/flybench/internal/collect"
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

// TestDropProgramsSums: the pages of every file are summed, a file that
// cannot be opened is named with why.
func TestDropProgramsSums(t *testing.T) {
	d := dropPrograms([]string{t.TempDir() + "/missing"})
	if d.Pages != 0 || d.Resident != 0 || d.Left != 0 || len(d.Failed) != 1 {
		t.Errorf("got %+v, want one failure and no pages", d)
	}
}

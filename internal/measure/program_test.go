package measure

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
)

// TestProgramOf: the file a command starts, found as the runner finds it,
// with the file a symbolic link resolves to; nothing for a shell command
// or a program that is not there.
func TestProgramOf(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "prog")
	if err := os.WriteFile(file, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("prog", link); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(file)
	if err != nil {
		t.Fatal(err)
	}
	realLink, err := filepath.EvalSymlinks(link)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	for _, c := range []struct {
		argv []string
		dir  string
		want *ndjson.Program
	}{
		{[]string{file, "x"}, "", &ndjson.Program{Path: file}},
		{[]string{link}, "", &ndjson.Program{Path: link, Link: realLink}},
		{[]string{"link"}, "", &ndjson.Program{Path: link, Link: realLink}}, // found in PATH
		{[]string{"./prog"}, dir, &ndjson.Program{Path: file}},              // relative to the working directory
		{[]string{runner.ShellPath, "-c", "prog"}, "", nil},
		{[]string{filepath.Join(dir, "missing")}, "", nil},
		{nil, "", nil},
	} {
		got := programOf(c.argv, c.dir)
		switch {
		case (got == nil) != (c.want == nil):
			t.Errorf("%q: %+v, want %+v", c.argv, got, c.want)
		case got != nil && (got.Path != c.want.Path || got.Link != c.want.Link):
			t.Errorf("%q: %+v, want %+v", c.argv, *got, *c.want)
		}
	}
	if realLink != real {
		t.Errorf("the link resolves to %s, want %s", realLink, real)
	}
}

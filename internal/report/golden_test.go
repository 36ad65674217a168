package report

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/")

// golden compares got with testdata/name. A missing file means empty output.
// With -update it rewrites the file; on a mismatch it writes
// testdata/STEM.got-stdout and reports the first differing line.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	gotPath := strings.TrimSuffix(path, filepath.Ext(path)) + ".got-stdout"
	if bytes.Equal(got, want) {
		os.Remove(gotPath)
		return
	}
	if err := os.WriteFile(gotPath, got, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Errorf("%s differs from expected (got written to %s; go test -update rewrites):\n%s",
		path, gotPath, firstDiff(string(want), string(got)))
}

// firstDiff shows the first line where want and got part, with one line of context.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		wl, gl := lineAt(w, i), lineAt(g, i)
		if wl == gl {
			continue
		}
		var b strings.Builder
		if i > 0 {
			fmt.Fprintf(&b, "  %4d   %s\n", i, lineAt(w, i-1))
		}
		fmt.Fprintf(&b, "- %4d   %s\n+ %4d   %s", i+1, wl, i+1, gl)
		return b.String()
	}
	return "(identical lines, different bytes)"
}

func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "<end of output>"
}

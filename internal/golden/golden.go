// Package golden compares a test's output with an expected file under
// testdata/, the way golang.org/x/perf's tests do: a missing file means
// empty output, -update rewrites the file, and a mismatch writes
// testdata/STEM.got-stdout and shows the first differing line. Only
// tests import it; -update is registered with the test binary's flags.
package golden

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

// Check compares got with testdata/name.
func Check(t testing.TB, name string, got []byte) {
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
		path, gotPath, FirstDiff(string(want), string(got)))
}

// FirstDiff shows the first line where want and got part, with one line
// of context.
func FirstDiff(want, got string) string {
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

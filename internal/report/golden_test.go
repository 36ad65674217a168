package report

import (
	"testing"

	goldenpkg "github.com/flybench/flybench/internal/golden"
)

// golden compares got with testdata/name (package golden).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenpkg.Check(t, name, got)
}

// firstDiff shows the first line where want and got part.
func firstDiff(want, got string) string { return goldenpkg.FirstDiff(want, got) }

package recfixture

import (
	"bytes"
	"testing"

	"github.com/flybench/flybench/internal/golden"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Stream writes records as an NDJSON stream.
func stream(t *testing.T, recs []ndjson.Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestCommittedStreams: the small recordings committed for the pipeline
// testscript (tests/testdata/recording.txtar embeds them) are this
// package's output; -update rewrites testdata/.
func TestCommittedStreams(t *testing.T) {
	golden.Check(t, "before.ndjson", stream(t, Recording("rec-before", Small, 1, 1)))
	golden.Check(t, "after.ndjson", stream(t, Recording("rec-after", Small, 1.2, 1)))
}

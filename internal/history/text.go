package history

import (
	"fmt"
	"io"
	"strings"

	"github.com/flybench/flybench/pkg/ndjson"
)

// WriteAdded says, one line each, what became of the runs of the stream
// name: added, or already stored.
func WriteAdded(w io.Writer, name string, added []Added) error {
	var b strings.Builder
	for _, a := range added {
		if a.Stored {
			fmt.Fprintf(&b, "added %s from %s: %d cases, %d comparisons\n", a.RunID, name, a.Cases, a.Comps)
		} else {
			fmt.Fprintf(&b, "kept %s from %s: already stored\n", a.RunID, name)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// SeriesStream is the series as one stream, to be written in one write.
func SeriesStream(series []ndjson.Series) (string, error) {
	var b strings.Builder
	w := ndjson.NewWriter(&b)
	for i := range series {
		if err := w.Write(&series[i]); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

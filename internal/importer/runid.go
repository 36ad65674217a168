package importer

import (
	"encoding/json"

	"github.com/google/uuid"

	"github.com/flybench/flybench/pkg/ndjson"
)

// idSpace is the UUID namespace of imported runs' ids.
var idSpace = uuid.MustParse("6f1b5c2e-8a43-4d0e-9b7a-3c1f0e2d9a64")

// runID names an imported run by its content: a name-based (SHA-1, RFC
// 9562 version 5) UUID of the file's bytes and of the cases, tags and host
// the run record gives them. Importing the same file the same way names
// the same measurement; the start time and flybench's version do not
// enter it.
func runID(data []byte, run *ndjson.Run) string {
	ident, _ := json.Marshal(struct {
		Cases []ndjson.Case
		Tags  map[string]string
		Host  ndjson.Host
	}{run.Cases, run.Tags, run.Host}) // plain strings, ints and maps: cannot fail
	name := append(append(append([]byte(nil), data...), 0), ident...)
	return uuid.NewSHA1(idSpace, name).String()
}

package report

import (
	"github.com/flybench/flybench/pkg/ndjson"
)

// verdictColor is green when the contender wins, red when it loses, cyan for
// equivalence and yellow when the data cannot tell.
func verdictColor(verdict string) string {
	switch verdict {
	case ndjson.VerdictContenderFaster:
		return sgrGreen
	case ndjson.VerdictReferenceFaster:
		return sgrRed
	case ndjson.VerdictEquivalent:
		return sgrCyan
	case ndjson.VerdictInconclusive:
		return sgrYellow
	}
	return ""
}

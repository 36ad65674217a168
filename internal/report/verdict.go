package report

import (
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// names are the reference and contender names of a comparison, falling back
// to the run's case names when the record leaves them empty.
func names(r *model.Run, c *ndjson.Comparison) (ref, con string) {
	ref, con = c.ReferenceName, c.ContenderName
	if ref == "" {
		ref = r.CaseName(c.Reference)
	}
	if con == "" {
		con = r.CaseName(c.Contender)
	}
	return ref, con
}

// verdictText names the winner: "new faster" for "contender faster".
func verdictText(r *model.Run, c *ndjson.Comparison) string {
	ref, con := names(r, c)
	switch c.Verdict {
	case ndjson.VerdictContenderFaster:
		return con + " faster"
	case ndjson.VerdictReferenceFaster:
		return ref + " faster"
	case "":
		return "no verdict"
	}
	return c.Verdict
}

// verdictShort is the verdict from the contender's side, for a table row.
func verdictShort(verdict string) string {
	switch verdict {
	case ndjson.VerdictContenderFaster:
		return "faster"
	case ndjson.VerdictReferenceFaster:
		return "slower"
	case ndjson.VerdictEquivalent:
		return "equivalent"
	case "":
		return "no verdict"
	}
	return verdict
}

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

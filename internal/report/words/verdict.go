// Package words is the wording every format of a report shares and every
// figure's text alternative draws on: verdicts and who won, schedules and
// layouts, decision estimates, stopping rules, families, what the harness
// saw of its host, and the one-line texts of baselines, suites, A/A series
// and recordings. Each function reads the model and returns plain text;
// the formats escape, colour and lay it out.
package words

import (
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// AxisVerdict names the winner of an axis: "new better".
func AxisVerdict(r *model.Run, k *ndjson.Comparison, verdict string) string {
	ref, con := Names(r, k)
	switch verdict {
	case model.AxisContenderBetter:
		return con + " better"
	case model.AxisReferenceBetter:
		return ref + " better"
	case "":
		return "no verdict"
	}
	return string(verdict)
}

// Absolute reports whether a result is a paired difference in the axis
// unit rather than a relative change in percent.
func Absolute(res *ndjson.AxisResult) bool {
	return strings.HasPrefix(res.Method, "absolute")
}

// AxisChange is the change of a result: "-8.8%", or for the absolute
// method the mean difference in the axis unit, "+0.2500 faults/op".
func AxisChange(res *ndjson.AxisResult, unit string) string {
	if Absolute(res) {
		return model.SignedAxis(res.Change, unit)
	}
	return model.Pct(res.Change)
}

// AxisChangeCI is the interval of the change: "-10.1% .. -7.4%".
func AxisChangeCI(res *ndjson.AxisResult, unit string) string {
	if Absolute(res) {
		return model.AxisRange(res.CI[0], res.CI[1], unit, true)
	}
	return model.PctRange(res.CI)
}

// Names are the reference and contender names of a comparison, falling back
// to the run's case names when the record leaves them empty.
func Names(r *model.Run, c *ndjson.Comparison) (ref, con string) {
	ref, con = c.ReferenceName, c.ContenderName
	if ref == "" {
		ref = r.CaseName(c.Reference)
	}
	if con == "" {
		con = r.CaseName(c.Contender)
	}
	return ref, con
}

// Verdict names the winner: "new faster" for "contender faster".
// A comparison whose interval is not a valid one (comparison.interval)
// has "insufficient evidence".
func Verdict(r *model.Run, c *ndjson.Comparison) string {
	ref, con := Names(r, c)
	if Insufficient(c) {
		return ndjson.IntervalInsufficient
	}
	switch c.Verdict {
	case ndjson.VerdictContenderFaster:
		return con + " faster"
	case ndjson.VerdictReferenceFaster:
		return ref + " faster"
	case "":
		return "no verdict"
	}
	return string(c.Verdict)
}

// Insufficient reports whether the comparison's decision interval is not
// a valid one at its level (schema 1.7).
func Insufficient(c *ndjson.Comparison) bool {
	return c.Interval != nil && c.Interval.Status == ndjson.IntervalInsufficient
}

// ShortSeries is what the short-series rule did to the comparison's
// interval, after two spaces ("  30 pairs: interval 1.21× the
// bootstrap's, for a lag-one correlation up to 0.41, as few as 12.6
// independent pairs"); empty when it did not widen it by 1% or more.
func ShortSeries(c *ndjson.Comparison) string {
	if c.Interval == nil || c.Interval.Short == nil || c.Interval.Short.Widening < 1.01 {
		return ""
	}
	sh := c.Interval.Short
	return fmt.Sprintf("  %d pairs: interval %.2f× the bootstrap's, for a lag-one correlation up to %.2f, as few as %.1f independent pairs",
		c.Pairs, sh.Widening, sh.Lag1Bound, sh.EffectivePairsBound)
}

// VerdictShort is the verdict from the contender's side, for a table row.
func VerdictShort(verdict ndjson.Verdict) string {
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
	return string(verdict)
}

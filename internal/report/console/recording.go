package console

import (
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

func (c *console) recording(r *model.Recording) {
	c.line(recordingHeader(r, c.p))
	for _, w := range r.Warnings() {
		c.warning(w)
	}
	c.spanCards(r)
}

// spanCards prints a card per benchmark, then the table of the
// recording's comparisons.
func (c *console) spanCards(r *model.Recording) {
	for i := range r.Summaries {
		c.spanCard(r, &r.Summaries[i])
	}
	if len(r.Comparisons) > 0 {
		c.spanComparisons(r.Comparisons)
	}
}

// recordingHeader is the recording's one-line identity.
func recordingHeader(r *model.Recording, p painter) string {
	rec := r.Record
	parts := []string{
		strings.TrimSpace(rec.Tool + " " + rec.ToolVersion),
		"recording " + model.ShortID(rec.RunID),
		model.Plural(len(rec.Benchmarks), "benchmark"),
		words.Retention(rec.Retention),
		words.Host(rec.Host),
	}
	if r.End == nil {
		parts = append(parts, p.paint(SGRYellow, "⚠ cut short: no recording_end"))
	}
	return model.JoinNonEmpty(parts, " · ")
}

// spanCard is one benchmark's summary: spans done and kept, outcome
// counts, percentiles with intervals, axes and warnings.
func (c *console) spanCard(r *model.Recording, s *ndjson.SpanSummary) {
	c.title("-", s.Name)
	c.row("spans", spanCountText(s))
	if s.Outcomes != nil {
		c.row("observed", words.Outcomes(s.Outcomes))
	}
	c.row("retained", words.Outcomes(s.RetainedOutcomes))
	if s.Outcome != "" && s.Outcome != "all" {
		c.row("filter", fmt.Sprintf("%s %s: statistics of %s", r.Names.Spell(words.FieldOutcome), s.Outcome, model.Plural(s.N, s.Outcome+" span")))
	}
	if s.Wall == nil {
		c.row("wall", model.UnavailableText(s.WallStatus, wallReason(s)))
	} else {
		for _, p := range s.Wall.Percentiles {
			c.row(words.Percentile(p.P), percentileText(p))
		}
		c.row("mean", model.Dur(s.Wall.Mean))
	}
	for _, a := range s.Axes {
		c.row(a.Name, words.SpanAxis(a))
	}
	for _, w := range s.Warnings {
		c.warning(w)
	}
}

// spanCountText is "240 done · 240 retained, 240 omitted, 1 unfinished ·
// individual spans".
func spanCountText(s *ndjson.SpanSummary) string {
	parts := []string{}
	if t := s.Tally; t != nil {
		parts = append(parts, fmt.Sprintf("%d done", t.Observed), fmt.Sprintf("%d retained, %d omitted, %d unfinished", t.Retained, t.Omitted, t.Unfinished))
	} else {
		parts = append(parts, "done unknown (cut short)")
	}
	parts = append(parts, fmt.Sprintf("n=%d summarized", s.N), semanticsText(s.SampleSemantics))
	if s.ConfidencePct > 0 {
		parts = append(parts, model.Confidence(s.ConfidencePct)+" intervals")
	}
	return strings.Join(parts, " · ")
}

// semanticsText says what one observation is.
func semanticsText(s string) string {
	if s == ndjson.SampleSemanticsIndividualSpan {
		return "individual spans"
	}
	return s
}

// percentileText is "40.63 µs  [38.77 .. 42.86 µs]" or the reason there
// is none.
func percentileText(p ndjson.SpanPercentile) string {
	if p.Status != ndjson.SpanOK || p.CI == nil {
		return p.Status
	}
	return model.Dur(p.Value) + "  [" + model.DurRange(p.CI[0], p.CI[1]) + "]"
}

// wallReason is the wall axis's reason in a summary without wall time.
func wallReason(s *ndjson.SpanSummary) string {
	if len(s.Axes) > 0 && s.Axes[0].Name == "wall" {
		return s.Axes[0].Reason
	}
	return ""
}

// spanComparisons is the table of a contender recording's comparisons,
// one row per benchmark and percentile, marked independent.
func (c *console) spanComparisons(ks []ndjson.SpanComparison) {
	k0 := ks[0]
	c.title("=", fmt.Sprintf("%s vs %s · independent samples", model.ShortID(k0.ReferenceRun), model.ShortID(k0.ContenderRun)))
	rows := [][]Cell{{{Text: "benchmark"}, {Text: "pct"}, {Text: "change"}, {Text: "interval"}, {Text: "verdict"}}}
	for _, k := range ks {
		for _, ch := range k.Changes {
			rows = append(rows, spanChangeCells(k, ch))
		}
	}
	c.table(rows, []bool{false, false, true, false, false})
	c.line(fmt.Sprintf("   comparison_design independent: each recording resampled on its own, %s intervals, threshold ±%s, outcome %s",
		model.Confidence(k0.ConfidencePct), model.Confidence(k0.ThresholdPct), orAll(k0.Outcome)))
	for _, k := range ks {
		for _, w := range k.Warnings {
			c.warning(w)
		}
	}
}

func spanChangeCells(k ndjson.SpanComparison, ch ndjson.PercentileChange) []Cell {
	if ch.ChangePct == nil || ch.CI == nil {
		change := "unavailable"
		if ch.Verdict == ndjson.VerdictInsufficient {
			change = "n/a"
		}
		return []Cell{{Text: k.Name}, {Text: words.Percentile(ch.P)}, {Text: change}, {Text: ""}, {Text: string(ch.Verdict)}}
	}
	return []Cell{{Text: k.Name}, {Text: words.Percentile(ch.P)}, {Text: model.Pct(*ch.ChangePct)}, {Text: model.PctRange(*ch.CI)},
		{Text: string(ch.Verdict), SGR: verdictColor(string(ch.Verdict))}}
}

func orAll(o string) string {
	if o == "" {
		return "all"
	}
	return o
}

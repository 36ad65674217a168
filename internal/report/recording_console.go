package report

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// writeRecordingsConsole renders each recording: a header line, a card
// per benchmark, and the table of its comparisons.
func writeRecordingsConsole(w *bytes.Buffer, s *model.Stream, opt Options) {
	c := newConsole(w, opt)
	for i, r := range s.Recordings {
		if i > 0 || len(s.Runs) > 0 {
			c.line("")
		}
		c.recording(r)
	}
}

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
		retentionText(rec.Retention),
		hostText(rec.Host),
	}
	if r.End == nil {
		parts = append(parts, p.paint(sgrYellow, "⚠ cut short: no recording_end"))
	}
	return model.JoinNonEmpty(parts, " · ")
}

// retentionText is "reservoir of 4096 per benchmark".
func retentionText(k ndjson.Retention) string {
	if k.Policy == "" {
		return ""
	}
	return fmt.Sprintf("%s of %d per benchmark", k.Policy, k.Capacity)
}

// spanCard is one benchmark's summary: spans done and kept, outcome
// counts, percentiles with intervals, axes and warnings.
func (c *console) spanCard(r *model.Recording, s *ndjson.SpanSummary) {
	c.title("-", s.Name)
	c.row("spans", spanCountText(s))
	if s.Outcomes != nil {
		c.row("observed", outcomesText(s.Outcomes))
	}
	c.row("retained", outcomesText(s.RetainedOutcomes))
	if s.Outcome != "" && s.Outcome != "all" {
		c.row("filter", fmt.Sprintf("--outcome %s: statistics of %s", s.Outcome, model.Plural(s.N, s.Outcome+" span")))
	}
	if s.Wall == nil {
		c.row("wall", model.UnavailableText(s.WallStatus, wallReason(s)))
	} else {
		for _, p := range s.Wall.Percentiles {
			c.row(percentileName(p.P), percentileText(p))
		}
		c.row("mean", model.Dur(s.Wall.Mean))
	}
	for _, a := range s.Axes {
		c.row(a.Name, spanAxisText(a))
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

// outcomeOrder lists the outcomes in reading order; others follow by name.
var outcomeOrder = []string{ndjson.OutcomeSuccess, ndjson.OutcomeFailure, ndjson.OutcomeTimeout, ndjson.OutcomeCancelled}

// outcomesText is "466 success, 8 failure, 4 timeout, 2 cancelled".
func outcomesText(m map[string]int64) string {
	var parts []string
	for _, o := range sortedOutcomes(m) {
		parts = append(parts, fmt.Sprintf("%d %s", m[o], o))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// sortedOutcomes are m's outcomes in reading order.
func sortedOutcomes(m map[string]int64) []string {
	var out []string
	for _, o := range outcomeOrder {
		if _, ok := m[o]; ok {
			out = append(out, o)
		}
	}
	var other []string
	for o := range m {
		if !contains(outcomeOrder, o) {
			other = append(other, o)
		}
	}
	sort.Strings(other)
	return append(out, other...)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// percentileName is "p50", "p99.9".
func percentileName(p float64) string { return "p" + strconv.FormatFloat(p, 'f', -1, 64) }

// percentileText is "40.63 µs  [38.77 .. 42.86 µs]" or the reason there
// is none.
func percentileText(p ndjson.SpanPercentile) string {
	if p.Status != "ok" || p.CI == nil {
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

// spanAxisText is one axis over the spans: its median and mean with n,
// and how many spans lack it, or why it has no value.
func spanAxisText(a ndjson.AxisSummary) string {
	if a.Stats == nil {
		return model.UnavailableText(a.Status, a.Reason)
	}
	text := fmt.Sprintf("median %s · mean %s · n=%d", model.AxisValue(a.Stats.Median, a.Unit), model.AxisValue(a.Stats.Mean, a.Unit), a.N)
	if a.Missing > 0 {
		text += fmt.Sprintf(" · %s: %s without a value", model.StatusText(a.Status), model.Plural(a.Missing, "span"))
	}
	return text
}

// spanComparisons is the table of a contender recording's comparisons,
// one row per benchmark and percentile, marked independent.
func (c *console) spanComparisons(ks []ndjson.SpanComparison) {
	k0 := ks[0]
	c.title("=", fmt.Sprintf("%s vs %s · independent samples", model.ShortID(k0.ReferenceRun), model.ShortID(k0.ContenderRun)))
	rows := [][]cell{{{text: "benchmark"}, {text: "pct"}, {text: "change"}, {text: "interval"}, {text: "verdict"}}}
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

func spanChangeCells(k ndjson.SpanComparison, ch ndjson.PercentileChange) []cell {
	if ch.ChangePct == nil || ch.CI == nil {
		change := "unavailable"
		if ch.Verdict == "insufficient evidence" {
			change = "n/a"
		}
		return []cell{{text: k.Name}, {text: percentileName(ch.P)}, {text: change}, {text: ""}, {text: ch.Verdict}}
	}
	return []cell{{text: k.Name}, {text: percentileName(ch.P)}, {text: model.Pct(*ch.ChangePct)}, {text: model.PctRange(*ch.CI)},
		{text: ch.Verdict, sgr: verdictColor(ch.Verdict)}}
}

func orAll(o string) string {
	if o == "" {
		return "all"
	}
	return o
}

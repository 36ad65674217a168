package console

import (
	"fmt"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// pair prints a two-case run: both cards, then the comparison card.
func (c *console) pair(r *model.Run) {
	c.card(r, model.Reference)
	c.card(r, 1)
	if len(r.Comparisons) == 0 && r.ReferenceWorkload() < 0 {
		c.line("")
		c.warning("the analysis holds no comparison for this run")
	}
	for k := range r.Comparisons {
		c.comparison(r, &r.Comparisons[k])
	}
}

// comparison prints the card of one paired comparison.
func (c *console) comparison(r *model.Run, k *ndjson.Comparison) {
	ref, con := words.Names(r, k)
	ci := words.CI(r, k)
	c.title("=", ref+" vs "+con)
	head := fmt.Sprintf("%s %s", c.p.paint(SGRBold, model.Speedup(words.DecisionSpeedup(k))), words.Estimator(k))
	if k.Estimator != "" {
		head += fmt.Sprintf("  %s geometric", model.Speedup(k.GeoSpeedup))
	}
	c.row("speedup", fmt.Sprintf("%s  %s median  %s %s", head, model.Speedup(k.MedianSpeedup), ci, model.SpeedupRange(k.SpeedupCI)))
	bootstrap := ""
	switch {
	case k.Blocked != nil:
		bootstrap = fmt.Sprintf("  (over %d process blocks; the pairs alone %s)", k.Blocked.Blocks, model.PctRange(k.Blocked.WithinCI))
	case k.Process != nil:
		bootstrap = "  (within-process: the pairs' circular-block bootstrap)"
	}
	interval := ci + " " + model.PctRange(k.ChangeCI)
	if words.Insufficient(k) {
		interval = "no valid " + ci
	}
	c.row(r.TimeLabel("time"), fmt.Sprintf("%s  %s  threshold ±%.1f%%  mean diff %s/op%s",
		model.Pct(k.ChangePct), interval, k.ThresholdPct, model.SignedDur(k.MeanDiffNS), bootstrap))
	if k.Geo != nil {
		c.row("geometric", words.Geometric(k, ci))
	}
	if k.Robust != nil && k.Estimator == ndjson.EstimatorRobust {
		c.row("outliers", words.Robust(k))
	}
	c.paintedRow("verdict", verdictColor(string(k.Verdict)), c.verdict(r, k))
	if k.Throughput != nil {
		c.row("throughput", words.ThroughputChange(k.Throughput, ci))
	}
	if k.Process != nil {
		c.row("process", words.Process(k.Process))
	}
	for i := range k.ProcessViews {
		c.row(words.ProcessLabel(&k.ProcessViews[i]), words.Process(&k.ProcessViews[i]))
	}
	if text := words.Stopping(r, k.ConfidencePct); text != "" {
		c.row("stopping", text)
	}
	if k.Design != ndjson.DesignSequential { // sequential blocks have no pairs
		c.row("order", words.Order(k, ref, con))
		c.row("serial", fmt.Sprintf("lag-1 correlation %.2f  block length %d", k.Lag1, k.BlockLen)+words.ShortSeries(k))
		c.row("pairs", fmt.Sprintf("%s wins %d  %s wins %d  ties %d",
			con, k.ContenderWins, ref, k.ReferenceWins, k.Ties))
	}
	c.schedule(k, r.Run.Config, r.Names)
	if text := words.Sizes(k.Sizes, r.Names); text != "" {
		c.row("sizes", text)
	}
	for _, w := range k.Warnings {
		c.warning(w)
	}
	c.axisTable(r, k, words.AxisCI(r, k, ci))
}

// verdict is "new faster   (contender faster)".
func (c *console) verdict(r *model.Run, k *ndjson.Comparison) string {
	text := words.Verdict(r, k)
	if k.Verdict != "" && string(k.Verdict) != text {
		text += "   (" + string(k.Verdict) + ")"
	}
	return text
}

// schedule is the schedule row, in yellow and marked when the design is
// exposed to drift.
func (c *console) schedule(k *ndjson.Comparison, cfg ndjson.Config, names field.Names) {
	text, exposed := words.Schedule(k.Design, k.Batching)
	if k.Duet != nil {
		text = words.Duet(k.Duet) + ", " + words.Batching(k.Batching)
	}
	text = words.WithPageCache(words.WithLayout(text, cfg.Layout, names), cfg)
	if exposed {
		c.paintedRow("schedule", SGRYellow, "⚠ "+text)
		return
	}
	c.row("schedule", text)
}

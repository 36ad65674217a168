package console

import (
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// card prints one case's result card. Spread and serial correlation are
// printed as prominently as the median: they say how far to trust it.
func (c *console) card(r *model.Run, i int) {
	c.title("-", r.CaseName(i))
	s := r.Summary(i)
	if s == nil {
		c.row("latency", "no summary for this case (no samples kept)")
		return
	}
	c.row(r.TimeLabel("latency"), c.latency(r, s))
	c.normalizedRow(r, s)
	c.row("tails", words.Tails(s))
	if s.Throughput != nil {
		c.row("throughput", words.Throughput(s.Throughput))
	}
	c.row("sampling", sampling(r, s))
	if text := words.Stopping(r, words.RunLevel(r)); text != "" && len(r.Run.Cases) == 1 {
		c.row("stopping", text)
	}
	c.row("quality", c.quality(s))
	c.row("clock", words.Clock(r.Run.Clock))
	if t := r.Run.Timer; t != nil {
		c.row("timer", words.Timer(t))
	}
	c.row("resolution", resolution(r.Run.Clock, s))
	c.row("elapsed", model.HMS(s.TimedNS)+" timed samples (hh:mm:ss)")
	c.telemetry(s.Telemetry)
	c.axesBlock(r, s)
}

func (c *console) latency(r *model.Run, s *ndjson.Summary) string {
	text := fmt.Sprintf("median %s  mean %s", c.p.paint(SGRBold, model.Dur(s.Median)+"/op"), model.Dur(s.Mean))
	if s.MeanCI != [2]float64{} {
		text += fmt.Sprintf("  %s %s", r.CILabel(), model.DurRange(s.MeanCI[0], s.MeanCI[1]))
	}
	return text
}

func sampling(r *model.Run, s *ndjson.Summary) string {
	iter, capped := s.Iterations, ""
	if cal := r.Calibration(s.Case); cal != nil {
		if iter == 0 {
			iter = cal.Iterations
		}
		if cal.Capped != "" {
			capped = "  (batch capped by " + cal.Capped + ")"
		}
	}
	auto := ""
	if r.Run.Config.SamplesRule != "" {
		auto = "  (" + r.Names.Spell(words.FieldSamples) + " auto: as many as fit, each batch at least one operation)"
	}
	return fmt.Sprintf("%d iter/sample%s x %s  median batch %s%s%s",
		iter, words.SizeRange(s), model.Plural(s.N, "sample"), model.Dur(s.MedianBatchNS), capped, auto)
}

func (c *console) quality(s *ndjson.Summary) string {
	return fmt.Sprintf("CV %s  MAD %s  outliers %s  lag-1 correlation %s",
		c.p.paint(SGRBold, fmt.Sprintf("%.2f%%", s.CVPct)), model.Dur(s.MAD),
		outliersText(s.Outliers), c.p.paint(SGRBold, fmt.Sprintf("%.2f", s.Lag1)))
}

// outliersText is "3 (low 0/1 mild/severe, high 2/0)", or "0".
func outliersText(o ndjson.Outliers) string {
	if o.Total() == 0 {
		return "0"
	}
	return fmt.Sprintf("%d (low %d/%d mild/severe, high %d/%d)",
		o.Total(), o.LowMild, o.LowSevere, o.HighMild, o.HighSevere)
}

// resolution shows the timer beneath the estimate: its steps, its read
// cost, and the per-operation floor once amortized over a batch.
func resolution(k ndjson.Clock, s *ndjson.Summary) string {
	if k.NominalNS == 0 && k.ReadMedianNS == 0 {
		return "not recorded (the clock was not characterized: an imported run)"
	}
	observed := "none"
	if k.ObservedStepNS > 0 {
		observed = model.Fixed3(k.ObservedStepNS)
	}
	return fmt.Sprintf("nominal %s  observed %s  median read %s  floor %s/op",
		model.Fixed3(k.NominalNS), observed, model.Fixed3(k.ReadMedianNS), model.Fixed3(s.FloorNS))
}

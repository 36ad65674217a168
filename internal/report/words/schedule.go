package words

import (
	"fmt"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Design describes a collection schedule. exposed is true for a design
// whose comparison is exposed to drift between the cases' blocks.
func Design(design ndjson.Design) (text string, exposed bool) {
	switch design {
	case ndjson.DesignPaired:
		return "paired adjacent, order-balanced", false
	case ndjson.DesignRounds:
		return "shuffled cyclic rounds, position-balanced", false
	case ndjson.DesignSequential:
		return "sequential blocks — exposed to drift", true
	case ndjson.DesignSingle:
		return "single case", false
	case "":
		return "design not recorded", false
	}
	return string(design), false
}

// Batching describes how batch sizes were chosen across cases.
func Batching(batching string) string {
	switch batching {
	case ndjson.BatchingEqualTime:
		return "equal timed slices (assumes a time per operation independent of the batch size)"
	case ndjson.BatchingShared:
		return "shared iterations"
	}
	return batching
}

// Schedule is the whole schedule line: "paired adjacent,
// order-balanced, equal timed slices".
func Schedule(design ndjson.Design, batching string) (text string, exposed bool) {
	text, exposed = Design(design)
	if b := Batching(batching); b != "" {
		text += ", " + b
	}
	return text, exposed
}

// Layout says whether the processes' memory layout was randomized,
// for the schedule line: "" when the run did not record it (worker and
// gotest modes, older streams).
func Layout(l *ndjson.Layout, names field.Names) string {
	switch {
	case l == nil:
		return ""
	case l.Randomized:
		return fmt.Sprintf("layout randomized (%s padded 0–%d B per unit)", l.EnvVar, l.MaxPad)
	case l.StackRandomized == "no":
		return "layout fixed (" + names.Spell(FieldLayout) + "=false, stack not randomized by the kernel)"
	}
	return "layout fixed (" + names.Spell(FieldLayout) + "=false)"
}

// WithLayout appends the layout text to a schedule line.
func WithLayout(text string, l *ndjson.Layout, names field.Names) string {
	if lt := Layout(l, names); lt != "" {
		return text + ", " + lt
	}
	return text
}

// PageCache says how the run treated its programs' files in the page
// cache, for the schedule line: "" when the run did not record it (older
// streams) or knew no program file to drop.
func PageCache(c ndjson.Config) string {
	pc := c.PageCache
	switch {
	case pc == nil:
		return ""
	case pc.Policy == ndjson.PageCacheKeep:
		return "programs' page cache kept as found"
	case len(pc.Files) == 0:
		return ""
	case c.Rotation != "" || c.Invocations > 1:
		return "program files dropped from the page cache before every block"
	}
	return "program files dropped from the page cache before warm-up"
}

// WithPageCache appends the page-cache text to a schedule line.
func WithPageCache(text string, c ndjson.Config) string {
	if pt := PageCache(c); pt != "" {
		return text + ", " + pt
	}
	return text
}

// Duet is the design text of a comparison whose pairs ran as duets:
// "duet pairs, both sides at once on cpus 0 and 1, swapped every pair,
// order-balanced (overlap 99%)".
func Duet(d *ndjson.DuetPairs) string {
	smt := ""
	if d.SMTSiblings {
		smt = " (SMT siblings of one core)"
	}
	return fmt.Sprintf("duet pairs, both sides at once on cpus %d and %d%s, swapped every pair, leader order-balanced (median overlap %.0f%%)",
		d.CPUs[0], d.CPUs[1], smt, 100*d.OverlapMedian)
}

// DuetRun is the design text of a duet run, before analysis.
func DuetRun(d *ndjson.Duet) string {
	return Duet(&ndjson.DuetPairs{CPUs: d.CPUs, SMTSiblings: d.SMTSiblings, OverlapMedian: 1})
}

package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// decide sets a run's outcome from its items: "cannot judge" when it has
// nothing to compare or its noise profile is for another machine class
// (advisory: the items are still computed), else "regressed" when an item
// failed and "pass" otherwise. A baseline compared despite differing
// fingerprint fields the user allowed is judged normally, with the fields
// listed, and advisory when one of them is about the machine or the
// measurement (a user tag such as the revision differs by design).
func decide(ck *ndjson.Check, r *Run, set noiseSet, names field.Names) {
	if len(r.AllComparisons()) == 0 {
		ck.Outcome, ck.Reasons = ndjson.CheckCannotJudge, []string{nothingToCompare(r, names)}
		return
	}
	if set.Mismatch != "" {
		ck.Advisory, ck.Reasons = true, append(ck.Reasons, set.Mismatch)
	}
	if b := r.Analysis.Baseline; b != nil && len(b.Allowed) > 0 {
		ck.Reasons = append(ck.Reasons, allowedFields(b))
		ck.Advisory = ck.Advisory || slices.ContainsFunc(b.Allowed, func(m ndjson.Mismatch) bool {
			return !strings.HasPrefix(m.Field, "tag.")
		})
	}
	if note := set.unconverged(); note != "" {
		ck.Reasons = append(ck.Reasons, note)
	}
	switch {
	case set.Mismatch != "":
		ck.Outcome = ndjson.CheckCannotJudge
	case count(ck.Items, ndjson.CheckItemFail) > 0:
		ck.Outcome = ndjson.CheckRegressed
	default:
		ck.Outcome = ndjson.CheckPass
	}
}

// decideWithHistory is decide for a run also judged against its history:
// a run without comparisons is judged on its history alone, and a run of
// which no item could be judged (too little history, nothing else to
// compare) cannot be judged, with short, why the history fell short.
func decideWithHistory(ck *ndjson.Check, r *Run, set noiseSet, short string, names field.Names) {
	if len(r.AllComparisons()) > 0 {
		decide(ck, r, set, names)
	} else if count(ck.Items, ndjson.CheckItemFail) > 0 {
		ck.Outcome = ndjson.CheckRegressed
	} else {
		ck.Outcome = ndjson.CheckPass
	}
	if ck.Outcome == ndjson.CheckPass && count(ck.Items, ndjson.CheckItemPass) == 0 {
		if short == "" {
			short = "no metric could be judged: every item was skipped"
		}
		ck.Outcome, ck.Reasons = ndjson.CheckCannotJudge, append([]string{short}, ck.Reasons...)
	}
}

// nothingToCompare says why a run has no comparison and what to do.
func nothingToCompare(r *Run, names field.Names) string {
	what := fmt.Sprintf("run %s has no comparison", model.ShortID(r.Run.RunID))
	if len(r.Run.Cases) == 1 {
		what = fmt.Sprintf("run %s measured one case and has no baseline", model.ShortID(r.Run.RunID))
	}
	return what + ": nothing to compare; compare two builds (fb-pair -- OLD NEW) or the run against an archived one (fb-analyze " + names.Spell(FieldBaseline) + " BASE.ndjson)"
}

// allowedFields lists the fingerprint fields a baseline comparison was
// allowed to differ in.
func allowedFields(b *ndjson.Baseline) string {
	fields := make([]string, len(b.Allowed))
	for i, m := range b.Allowed {
		fields[i] = fmt.Sprintf("%s (%s → %s)", m.Field, m.Baseline, m.Current)
	}
	return "compared with baseline " + model.ShortID(b.RunID) + " with allowed fingerprint differences: " + strings.Join(fields, ", ")
}

// count is the number of items with the given outcome.
func count(items []ndjson.CheckItem, outcome string) int {
	n := 0
	for _, it := range items {
		if it.Outcome == outcome {
			n++
		}
	}
	return n
}

// Result is the gate's overall judgement of its whole input.
type Result struct {
	// Checks holds one record per run, in input order.
	Checks []ndjson.Check
	// Outcome is "regressed" when a run regressed; else "cannot judge"
	// when no run had anything to compare or a run that had could not be
	// judged; else "pass". A run without comparisons among runs with some
	// (a baseline's own file given along) does not decide.
	Outcome string
	// Checked counts the items passed or failed, Failed those failed in
	// regressed runs, Skipped those skipped, over the runs that decide.
	Checked, Failed, Skipped int
	// Reason is why the input cannot be judged.
	Reason string
}

// summarize combines the checks of every run.
func summarize(checks []ndjson.Check) Result {
	res := Result{Checks: checks, Outcome: ndjson.CheckPass}
	deciding := 0
	for _, ck := range checks {
		if len(ck.Items) == 0 {
			continue
		}
		deciding++
		res.add(ck)
	}
	if deciding == 0 {
		res.Outcome = ndjson.CheckCannotJudge
		res.Reason = "the input has no comparison"
		if len(checks) > 0 && len(checks[0].Reasons) > 0 {
			res.Reason = checks[0].Reasons[0]
		}
	}
	return res
}

// add counts one deciding check into the result.
func (res *Result) add(ck ndjson.Check) {
	fails := count(ck.Items, ndjson.CheckItemFail)
	res.Checked += fails + count(ck.Items, ndjson.CheckItemPass)
	res.Skipped += count(ck.Items, ndjson.CheckItemSkip)
	switch ck.Outcome {
	case ndjson.CheckRegressed:
		res.Outcome, res.Failed = ndjson.CheckRegressed, res.Failed+fails
	case ndjson.CheckCannotJudge:
		if res.Outcome != ndjson.CheckRegressed {
			res.Outcome = ndjson.CheckCannotJudge
		}
		if res.Reason == "" {
			res.Reason = ck.Reasons[0]
		}
	}
}

// Headline is the one-line outcome: "no regression: 9 metrics checked",
// "regressed: 2 of 9 metrics" or "cannot judge: why".
func (res Result) Headline() string {
	switch res.Outcome {
	case ndjson.CheckRegressed:
		return fmt.Sprintf("regressed: %d of %s", res.Failed, model.Plural(res.Checked, "metric"))
	case ndjson.CheckCannotJudge:
		return "cannot judge: " + res.Reason
	}
	s := "no regression: " + model.Plural(res.Checked, "metric") + " checked"
	if res.Skipped > 0 {
		s += fmt.Sprintf(", %d skipped", res.Skipped)
	}
	return s
}

// Failures names the failed items of regressed runs, at most n of them:
// "a → b time (slower by 10.0%)".
func (res Result) Failures(n int) []string {
	var out []string
	for _, ck := range res.Checks {
		if ck.Outcome != ndjson.CheckRegressed {
			continue
		}
		for _, it := range ck.Items {
			if it.Outcome == ndjson.CheckItemFail && len(out) < n {
				out = append(out, fmt.Sprintf("%s %s (%s)", it.Subject, it.Metric, formatValue(it)))
			}
		}
	}
	return out
}

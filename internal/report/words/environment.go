package words

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// The words for what the harness observed about its host during a run:
// the claim, the quiescence gate, placement, the interference watch and
// the operating conditions. Every format takes them from here. They read
// the run's environment record (and the lock, gate and window records for
// detail) and adjust nothing; a detector that could not see says
// "unavailable", never something that reads as a clean host.

// notRequested is the environment record's word for a host tool or
// placement that was not asked for.
const notRequested = "not_requested"

// Claim is the host claim: "claim held (machine), waited 300.0 ms".
func Claim(r *model.Run) string {
	outcome, l := r.Environment.Lock, r.Lock
	text := ClaimShort(outcome)
	if l == nil || outcome == "" || outcome == notRequested {
		return text
	}
	if scope := claimScope(l); scope != "" {
		text += " (" + scope + ")"
	}
	if l.WaitedNS > 0 {
		text += ", waited " + model.Dur(float64(l.WaitedNS))
	}
	return text
}

// ClaimShort is the claim's outcome in a few words: "claim held".
func ClaimShort(outcome string) string {
	switch outcome {
	case ndjson.LockHeld:
		return "claim held"
	case ndjson.LockNamespaceScoped:
		return "claim namespace-scoped"
	case ndjson.LockBusy:
		return "claim busy"
	case ndjson.LockPathUnusable:
		return "claim path unusable"
	case "", notRequested:
		return "no claim"
	}
	return "claim " + outcome
}

func claimScope(l *ndjson.Lock) string {
	if l.Scope == "cpus" && len(l.CPUs) > 0 {
		return "cpus " + cpuList(l.CPUs)
	}
	return l.Scope
}

// claimWarning says what a claim that is not held leaves exposed, or "".
func claimWarning(r *model.Run) string {
	switch r.Environment.Lock {
	case ndjson.LockNamespaceScoped:
		return "claim covers only this mount namespace (private /tmp)"
	case ndjson.LockBusy:
		return "claim not obtained: " + holdersText(r.Lock)
	case ndjson.LockPathUnusable:
		if r.Lock != nil && r.Lock.Reason != "" {
			return "claim not obtained: " + r.Lock.Reason
		}
		return "claim not obtained: the claim path is unusable"
	}
	return ""
}

// holdersText names whoever held the claim: "another holder (pid 4242 fb-pair)".
func holdersText(l *ndjson.Lock) string {
	switch {
	case l == nil || len(l.Holders) == 0:
		return "another holder had it"
	case len(l.Holders) == 1:
		return "another holder (" + l.Holders[0] + ")"
	}
	return "other holders (" + strings.Join(l.Holders, "; ") + ")"
}

// Gate is the quiescence preflight: "gate passed after 1.200 s
// (average 3.1%, busiest cpu 8.0%)", the loads being the last poll's.
func Gate(r *model.Run) string {
	outcome, g := r.Environment.Gate, r.Gate
	text := GateShort(outcome)
	if g == nil || (outcome != ndjson.GatePassed && outcome != ndjson.GateTimeout) {
		return text
	}
	if g.WaitedNS > 0 {
		text += " after " + model.Dur(float64(g.WaitedNS))
	}
	if g.Polls > 0 {
		text += " (average " + share(g.LastAveragePct) + ", busiest cpu " + share(g.LastCorePct) + ")"
	}
	return text
}

// GateShort is the gate's outcome in a few words: "gate passed".
func GateShort(outcome string) string {
	switch outcome {
	case ndjson.GatePassed:
		return "gate passed"
	case ndjson.GateTimeout:
		return "gate timed out"
	case "", notRequested:
		return "no quiescence gate"
	}
	return "gate " + outcome
}

// gateWarning is said of a gate that timed out. fb-gate refuses to start
// a run then, so it appears only in a stream put together by hand.
func gateWarning(r *model.Run) string {
	if r.Environment.Gate != ndjson.GateTimeout {
		return ""
	}
	if g := r.Gate; g != nil {
		return fmt.Sprintf("quiescence gate timed out: the host did not stay under %s average and %s on any cpu",
			percent(g.MaxAveragePct), percent(g.MaxCorePct))
	}
	return "quiescence gate timed out: the host did not settle"
}

// Placement is where the commands ran: "strict on cpu 1, watching cpus 1,3".
func Placement(r *model.Run) string {
	e, p := r.Environment, r.Run.Config.Placement
	text := e.Placement
	switch {
	case r.Run.Config.Duet != nil:
		d := r.Run.Config.Duet
		text = fmt.Sprintf("duet: strict on cpus %d and %d, the sides swapping every pair", d.CPUs[0], d.CPUs[1])
	case e.Placement == "" || e.Placement == notRequested:
		text = "not requested"
	case e.Placement == ndjson.PlacementStrict && p != nil:
		text = "strict on cpu " + strconv.Itoa(p.CPU)
	}
	if len(e.WatchedCPUs) > 0 {
		text += ", watching cpus " + cpuList(e.WatchedCPUs)
	}
	return text
}

func placementWarning(r *model.Run) string {
	if r.Environment.Placement != ndjson.PlacementRejected {
		return ""
	}
	if p := r.Run.Config.Placement; p != nil && p.Reason != "" {
		return "placement rejected (" + p.Reason + "): the commands ran unplaced"
	}
	return "placement rejected: the commands ran unplaced"
}

// WatchOn says whether the interference watch was asked for.
func WatchOn(r *model.Run) bool { return r.Run.Config.Watch != nil || r.Environment.Watched }

// Watch is the watch policy and what it saw: "retake, limit 10%
// foreign (core-scoped): 10 windows, 64 samples observed, foreign mean
// 8.9% peak 31.4%". A watch whose windows were all too short to judge
// says the foreign share is unknown rather than zero.
func Watch(r *model.Run) string {
	if !WatchOn(r) {
		return "off"
	}
	e, head := r.Environment, "on"
	if w := r.Run.Config.Watch; w != nil {
		head = w.Response + ", limit " + percent(w.MaxForeignPct) + " foreign"
	}
	if e.Windows == 0 {
		return head + ": no window closed"
	}
	head += " (" + attributionText(e) + ")"
	body := model.Plural(e.Windows, "window") + ", " + model.Plural(e.ObservedSamples, "sample") + " observed"
	if !e.Watched {
		return head + ": " + body + ", none judged: foreign share unknown"
	}
	return head + ": " + body + ", foreign mean " + share(e.MeanForeignPct) + " peak " + share(e.PeakForeignPct)
}

func attributionText(e *ndjson.Environment) string {
	if e.AttributionDiluted {
		return "core-scoped, then host-wide"
	}
	return strings.ReplaceAll(e.Attribution, "_", "-")
}

// Repairs says how the run repaired itself: "2 windows retaken, 1
// pause (812.0 ms): 30 samples discarded and collected again", or "" when
// it did not.
func Repairs(r *model.Run) string {
	e := r.Environment
	var parts []string
	if n := RetakenWindows(r); n > 0 {
		parts = append(parts, model.Plural(n, "window")+" retaken")
	}
	if e.Pauses > 0 {
		parts = append(parts, fmt.Sprintf("%s (%s)", model.Plural(e.Pauses, "pause"), model.Dur(float64(e.PausedNS))))
	}
	text := strings.Join(parts, ", ")
	if e.RetakenSamples > 0 {
		text = model.JoinNonEmpty([]string{text, model.Plural(e.RetakenSamples, "sample") + " discarded and collected again"}, ": ")
	}
	return text
}

// RetakenWindows is the collector's count of retaken windows, or, for a
// run cut short, the retaken window records.
func RetakenWindows(r *model.Run) int {
	if r.End != nil {
		return r.End.Retakes
	}
	n := 0
	for _, w := range r.Windows {
		if w.Action == ndjson.ActionRetaken {
			n++
		}
	}
	return n
}

// Contaminated is "10 samples kept while contaminated", or "" when
// the watch judged every kept sample clean or judged none.
func Contaminated(e *ndjson.Environment) string {
	if !e.Watched || e.ContaminatedSample == 0 {
		return ""
	}
	return model.Plural(e.ContaminatedSample, "sample") + " kept while contaminated"
}

func budgetWarning(r *model.Run) string {
	if !r.Environment.BudgetExhausted {
		return ""
	}
	response := "watch"
	if w := r.Run.Config.Watch; w != nil && w.Response != "" {
		response = w.Response
	}
	return response + " budget exhausted: contaminated windows were kept"
}

func dilutedWarning(r *model.Run) string {
	if !r.Environment.AttributionDiluted {
		return ""
	}
	at := ""
	for _, w := range r.Windows {
		if w.Diluted {
			at = " at window " + strconv.Itoa(w.Index)
			break
		}
	}
	return "core-scoped attribution gave way to host-wide" + at + ": later foreign shares cover the whole host"
}

// Conditions is the operating-conditions policy and what its
// detectors saw: "observe: profile unavailable, degradation unavailable,
// throttle counters unavailable".
func Conditions(r *model.Run) string {
	c := r.Environment.Conditions
	if c == nil {
		return "not checked"
	}
	text := strings.Join([]string{profileText(c), degradationText(c), throttleText(c)}, ", ")
	if c.Mode != "" {
		text = c.Mode + ": " + text
	}
	return text
}

func profileText(c *ndjson.EnvironmentConditions) string {
	switch {
	case c.ProfileAvailability != ndjson.Available:
		return "profile unavailable"
	case c.ProfileChanges == 0:
		return "profile " + c.InitialProfile
	}
	return fmt.Sprintf("profile %s (%s, ended %s)", c.InitialProfile, model.Plural(c.ProfileChanges, "change"), c.FinalProfile)
}

func degradationText(c *ndjson.EnvironmentConditions) string {
	if c.DegradationAvail != ndjson.Available {
		return "degradation unavailable"
	}
	return "degradation " + c.WorstDegradation
}

func throttleText(c *ndjson.EnvironmentConditions) string {
	if c.ThrottleAvailability != ndjson.Available || c.ThrottleEvents == nil {
		return "throttle counters unavailable"
	}
	text := model.Plural(int(*c.ThrottleEvents), "throttle event")
	if c.ThrottleMS != nil {
		text += " (" + model.Dur(float64(*c.ThrottleMS)*1e6) + ")"
	}
	return text
}

// ConditionsImpact is what unacceptable conditions did to the run: "5
// units under unacceptable conditions: 5 collected again after 1 pause
// (812.0 ms)", or "".
func ConditionsImpact(c *ndjson.EnvironmentConditions) string {
	if c == nil || c.AffectedUnits == 0 {
		return ""
	}
	text := model.Plural(c.AffectedUnits, "unit") + " under unacceptable conditions"
	if c.RecollectedUnits > 0 {
		text += fmt.Sprintf(": %d collected again after %s (%s)",
			c.RecollectedUnits, model.Plural(c.Pauses, "pause"), model.Dur(float64(c.PausedNS)))
	}
	return text
}

func conditionsWarnings(c *ndjson.EnvironmentConditions) []string {
	if c == nil {
		return nil
	}
	var warnings []string
	if kept := c.AffectedUnits - c.RecollectedUnits; kept > 0 {
		warnings = append(warnings, model.Plural(kept, "unit")+" kept under unacceptable operating conditions")
	}
	if c.BudgetExpired {
		text := "operating-conditions pause budget expired"
		if c.FallbackUsed != "" {
			text += ", continued under " + c.FallbackUsed
		}
		warnings = append(warnings, text)
	}
	return warnings
}

// HostWarnings are what a reader must not miss about the host, in the
// order of the environment block's lines.
func HostWarnings(r *model.Run) []string {
	all := []string{claimWarning(r), gateWarning(r), placementWarning(r), budgetWarning(r), dilutedWarning(r)}
	all = append(all, conditionsWarnings(r.Environment.Conditions)...)
	return model.NonEmpty(all)
}

// cpuList is "1,3".
func cpuList(cpus []int) string {
	s := make([]string, len(cpus))
	for i, c := range cpus {
		s[i] = strconv.Itoa(c)
	}
	return strings.Join(s, ",")
}

// share prints a measured CPU share with one decimal: "31.4%".
func share(v float64) string { return fmt.Sprintf("%.1f%%", v) }

// percent prints a configured limit without needless decimals: "10%".
func percent(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + "%" }

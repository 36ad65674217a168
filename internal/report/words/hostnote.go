package words

import (
	"strings"

	"github.com/flybench/flybench/internal/report/model"
)

// HostNote is the one line about the host under a run's table: "claim held
// · gate passed · placement strict on cpu 1 · watch retake: 2 windows
// retaken, peak foreign 31.4% · conditions ...".
func HostNote(r *model.Run) string {
	e := r.Environment
	parts := []string{ClaimShort(e.Lock), GateShort(e.Gate), "placement " + Placement(r), watchNote(r)}
	if e.Conditions != nil {
		parts = append(parts, "conditions "+Conditions(r))
	}
	return strings.Join(parts, " · ")
}

// watchNote is the watch in brief: its response, its repairs and the peak
// foreign share.
func watchNote(r *model.Run) string {
	if !WatchOn(r) {
		return "watch off"
	}
	e, head := r.Environment, "watch"
	if w := r.Run.Config.Watch; w != nil {
		head += " " + w.Response
	}
	var parts []string
	if n := RetakenWindows(r); n > 0 {
		parts = append(parts, model.Plural(n, "window")+" retaken")
	}
	if e.Pauses > 0 {
		parts = append(parts, model.Plural(e.Pauses, "pause"))
	}
	if text := Contaminated(e); text != "" {
		parts = append(parts, text)
	}
	if len(parts) == 0 {
		parts = append(parts, "no repairs")
	}
	if e.Watched {
		parts = append(parts, "peak foreign "+share(e.PeakForeignPct))
	} else {
		parts = append(parts, "foreign share unknown")
	}
	return head + ": " + strings.Join(parts, ", ")
}

// EnvironmentWarnings are the ⚠ lines of a run with an environment record:
// the repairs it made, then the host warnings of the console block.
func EnvironmentWarnings(r *model.Run) []string {
	if r.Environment == nil {
		return nil
	}
	var notes []string
	if text := Repairs(r); text != "" {
		notes = append(notes, "run repaired itself: "+text)
	}
	return append(notes, HostWarnings(r)...)
}

package html

import (
	"sort"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// htmlFact is one line of a run's header: what the run was, where and how.
type htmlFact struct {
	Label, Text, Tone string
}

// runFacts are the header facts of a run, from the same words as the
// console and Markdown formats.
func runFacts(r *model.Run) []htmlFact {
	run := r.Run
	design, exposed := words.Schedule(run.Design, run.Batching)
	if run.Config.Duet != nil {
		design = words.DuetRun(run.Config.Duet) + ", " + words.Batching(run.Batching)
	}
	facts := []htmlFact{
		{Label: "tool", Text: model.JoinNonEmpty([]string{strings.TrimSpace(run.Tool + " " + run.ToolVersion), words.Source(run)}, " · ")},
		{Label: "run", Text: model.JoinNonEmpty([]string{run.RunID + r.RepeatNote(), "started " + words.Started(run.Started)}, " · ")},
		{Label: "host", Text: hostFacts(run.Host)},
		{Label: "mode", Text: words.OrNA(string(run.Mode))},
		{Label: "design", Text: design},
		{Label: "schedule", Text: scheduleFacts(r)},
		{Label: "clock", Text: words.Clock(run.Clock)},
	}
	if exposed {
		facts[4].Tone = "warn"
	}
	if run.Timer != nil {
		facts = append(facts, htmlFact{Label: "timer", Text: words.Timer(run.Timer)})
	}
	if why := r.Incomplete(); why != "" {
		facts = append(facts, htmlFact{Label: "end", Text: "incomplete run: " + why, Tone: "warn"})
	}
	if r.Environment != nil {
		facts = append(facts, htmlFact{Label: "environment", Text: words.HostNote(r)})
	}
	if len(run.Tags) > 0 {
		facts = append(facts, htmlFact{Label: "tags", Text: tagsText(run.Tags)})
	}
	if r.Analysis != nil {
		facts = append(facts, htmlFact{Label: "method", Text: strings.TrimPrefix(words.Method(r), "Method: ")})
	}
	if text := words.Stopping(r, words.StoppingLevel(r)); text != "" {
		facts = append(facts, htmlFact{Label: "stopping", Text: text})
	}
	return facts
}

// hostFacts is the host line with its architecture and CPU governor:
// "Intel Xeon (2 cpus), linux 6.18.0 · amd64 · governor performance".
func hostFacts(h ndjson.Host) string {
	parts := []string{words.Host(h), h.Arch}
	if h.Governor != "" {
		parts = append(parts, "governor "+h.Governor)
	}
	return model.JoinNonEmpty(parts, " · ")
}

// scheduleFacts is how much was collected and how: "50 pairs kept ·
// slice 6.500 ms · seed 42".
func scheduleFacts(r *model.Run) string {
	var parts []string
	if r.End != nil {
		parts = append(parts, model.Plural(r.End.Units, words.UnitNoun(r))+" kept")
	}
	if c := r.Run.Config; c.SliceNS > 0 && r.Run.Batching == ndjson.BatchingEqualTime {
		parts = append(parts, "slice "+model.Dur(float64(c.SliceNS)))
	}
	if c := r.Run.Config; c.Invocations > 0 {
		parts = append(parts, model.Plural(c.Invocations, "invocation"))
	}
	parts = append(parts, "seed "+strconv.FormatUint(r.Run.Seed, 10))
	return strings.Join(parts, " · ")
}

// tagsText is "compiler=gcc-14, rev=abc123", sorted by key.
func tagsText(tags map[string]string) string {
	keys := make([]string, 0, len(tags))
	for k := range tags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		keys[i] = k + "=" + tags[k]
	}
	return strings.Join(keys, ", ")
}

// htmlCase is a row of a run's table of cases.
type htmlCase struct {
	Index         int
	Name, Command string
	Role          string
}

func runCases(r *model.Run) []htmlCase {
	out := make([]htmlCase, len(r.Run.Cases))
	for i, c := range r.Run.Cases {
		out[i] = htmlCase{Index: i, Name: r.CaseName(i), Command: c.Command}
		switch {
		case i == model.Reference && len(r.Run.Cases) > 1:
			out[i].Role = "reference"
		case c.Role == ndjson.RoleReferenceWorkload:
			out[i].Role = words.Yardstick
		case len(r.Run.Cases) > 1:
			out[i].Role = "contender"
		}
	}
	return out
}

// recordingFacts are the header facts of a recording.
func recordingFacts(rec *model.Recording) []htmlFact {
	k := rec.Record
	facts := []htmlFact{
		{Label: "tool", Text: model.JoinNonEmpty([]string{strings.TrimSpace(k.Tool + " " + k.ToolVersion), k.Source}, " · ")},
		{Label: "recording", Text: model.JoinNonEmpty([]string{k.RunID, "started " + words.Started(k.Started)}, " · ")},
		{Label: "host", Text: hostFacts(k.Host)},
		{Label: "benchmarks", Text: model.Plural(len(k.Benchmarks), "benchmark")},
		{Label: "retention", Text: words.OrNA(words.Retention(k.Retention))},
		{Label: "clock", Text: words.Clock(k.Clock)},
	}
	if len(k.Tags) > 0 {
		facts = append(facts, htmlFact{Label: "tags", Text: tagsText(k.Tags)})
	}
	if rec.End == nil {
		facts = append(facts, htmlFact{Label: "end", Text: "cut short: no recording_end", Tone: "warn"})
	}
	return facts
}

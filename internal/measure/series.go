package measure

import (
	"fmt"

	"github.com/google/uuid"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// maxAARuns bounds an A/A series.
const maxAARuns = 1000

// resolveSeries checks an A/A series and makes its one command both
// sides, named by the one name given or the command.
func (p *plan) resolveSeries() error {
	if p.AA == nil {
		return nil
	}
	n, aa := *p.AA, field.Name("AA")
	switch {
	case n < 1 || n > maxAARuns:
		return field.Errorf("AA", n, "%s %d out of range: use 1 to %d runs", aa, n, maxAARuns)
	case p.Scan != nil:
		return field.Errorf("AA", n, "%s with a parameter scan: %s measures one command against itself; drop the scan", aa, aa)
	case len(p.Commands) != 1:
		return field.Errorf("AA", n, "%s with %d commands: give the one command to measure against itself", aa, len(p.Commands))
	case p.Resume != nil:
		return field.Errorf("AA", n, "%s with %s: resume the interrupted run without %s", aa, field.Name("Resume.Path"), aa)
	case p.Reference != nil:
		return field.Errorf("AA", n, "%s with %s: a reference workload is a third case; drop it", aa, field.Name("Reference"))
	case len(p.Cases) > 1:
		return field.Errorf("AA", n, "%s with %d %s values: name the one worker case to measure against itself", aa, len(p.Cases), field.Name("Cases"))
	}
	p.Commands = []string{p.Commands[0], p.Commands[0]}
	if len(p.Names) == 1 {
		p.Names = []string{p.Names[0], p.Names[0] + " (2)"}
	}
	return nil
}

// runSeries collects an A/A series: the plan's collection *AA times,
// each a run of its own with the next seed, in one stream. An
// interrupted or failed run ends the series with its error.
func runSeries(p *plan, env Env) error {
	series, runs := uuid.NewString(), *p.AA
	for i := range runs {
		one := *p
		one.Seed = p.Seed + uint64(i)
		one.series = &ndjson.AASeries{Series: series, Index: i, Runs: runs}
		if err := runOnce(&one, env, fmt.Sprintf("%s A/A %d/%d", p.Tool, i+1, runs)); err != nil {
			return err
		}
	}
	return nil
}

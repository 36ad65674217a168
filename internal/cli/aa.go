package cli

import (
	"fmt"

	"github.com/google/uuid"
	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/progress"
	"github.com/flybench/flybench/pkg/ndjson"
)

// maxAARuns bounds --aa.
const maxAARuns = 1000

// aaFlag is fb-pair's --aa.
func aaFlag() ucli.Flag {
	return &ucli.IntFlag{Name: "aa", Usage: "measure this machine's false-alarm rate for ONE command: run it against itself N times, each a whole run of its own (seeds --seed to --seed+N-1); fb-analyze adds a summary of the false verdicts (man fb-pair(1), A/A RUNS)"}
}

// aaOf reads --aa: the number of A/A runs (0 without it), and the commands
// to measure, the one command twice.
func aaOf(c *ucli.Context, commands []string, scanned bool) (int, []string, error) {
	if !c.IsSet("aa") {
		return 0, commands, nil
	}
	n := c.Int("aa")
	switch {
	case n < 1 || n > maxAARuns:
		return 0, nil, usageErrorf("--aa %d out of range: use 1 to %d runs", n, maxAARuns)
	case scanned:
		return 0, nil, usageErrorf("--aa with a parameter scan: --aa measures one command against itself; drop the scan")
	case len(commands) != 1:
		return 0, nil, usageErrorf("--aa with %d commands: give the one command to measure against itself", len(commands))
	case c.IsSet("resume"):
		return 0, nil, usageErrorf("--aa with --resume: resume the interrupted run without --aa")
	case c.IsSet("reference"):
		return 0, nil, usageErrorf("--aa with --reference: a reference workload is a third case; drop it")
	case len(c.StringSlice("case")) > 1:
		return 0, nil, usageErrorf("--aa with %d --case values: name the one worker case to measure against itself", len(c.StringSlice("case")))
	}
	return n, []string{commands[0], commands[0]}, nil
}

// aaNames are the two sides' names: the one --name given twice, the second
// numbered, or the command's.
func aaNames(given []string) []string {
	if len(given) == 1 {
		return []string{given[0], given[0] + " (2)"}
	}
	return given
}

// runSeries collects an A/A series: the request's collection r.aa times,
// each a run of its own with the next seed, in one stream. An interrupted
// or failed run ends the series with its error.
func runSeries(r *measureRequest, env Env) error {
	series := uuid.NewString()
	for i := 0; i < r.aa; i++ {
		one := *r
		one.cfg.Seed = r.cfg.Seed + uint64(i)
		one.series = &ndjson.AASeries{Series: series, Index: i, Runs: r.aa}
		if err := measureOnce(&one, env, fmt.Sprintf("%s A/A %d/%d", r.tool, i+1, r.aa)); err != nil {
			return err
		}
	}
	return nil
}

// display is the progress display of one collection.
func display(r *measureRequest, env Env, label string) *progress.Display {
	return progress.New(env.Stderr, r.display, label)
}

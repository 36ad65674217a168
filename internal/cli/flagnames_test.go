package cli

import (
	"errors"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/field"
)

// configMessages are collect's field errors as fb-sample and fb-pair have
// always printed them.
var configMessages = []struct {
	edit func(*collect.Config)
	k    int
	want string
}{
	{func(c *collect.Config) { c.Samples = 5 }, 2, "--samples 5 out of range: use auto or 10 to 1000"},
	{func(c *collect.Config) { c.Warmup = -time.Second }, 2, "--warmup -1s is negative"},
	{func(c *collect.Config) { c.Measurement = 0 }, 2, "--measurement-time 0s must be positive"},
	{func(c *collect.Config) { c.MaxSampling = -time.Second }, 2, "--max-sampling-time -1s is negative (0 means unlimited)"},
	{func(c *collect.Config) { c.MinSample = 0 }, 2, "--min-sample-time 0s must be positive"},
	{func(c *collect.Config) { c.MaxIterations = 0 }, 2, "--max-iterations 0 must be at least 1"},
	{func(c *collect.Config) { c.Sequential = true }, 1, "--sequential needs 2 or more operations"},
	{func(c *collect.Config) { c.Batching = "x" }, 2, `--batching "x": use shared or equal-time`},
	{func(c *collect.Config) { c.SizeSpread = 0.5 }, 2, "--size-spread 0.5 out of range: use 1 (one fixed size) to 64"},
	{func(c *collect.Config) { c.Invocations = 1001 }, 2, "--invocations 1001 out of range: use 1 to 1000"},
	{func(c *collect.Config) { c.Invocations, c.Until = 2, untilRule("decision") }, 2,
		"--invocations with --until: a stopping rule cannot stop inside a process design; fix the number of blocks and samples instead"},
	{func(c *collect.Config) { c.Invocations, c.Sequential = 2, true }, 2,
		"--invocations with --sequential: blocks are collected paired or in rounds; drop --sequential"},
	{func(c *collect.Config) { c.Until = untilRule("soon") }, 2, `--until "soon": use decision or width=P%`},
	{func(c *collect.Config) { c.Until = untilRule("decision") }, 1,
		"--until decision needs 2 or more operations to compare; for one, use --until width=P%"},
	{func(c *collect.Config) { c.Until, c.Sequential = untilRule("width"), true }, 2,
		"--until cannot be combined with --sequential: sequential blocks need their length in advance"},
	{func(c *collect.Config) { c.Until = untilRule("width"); c.Until.MaxTime = 0 }, 2, "--max-time 0s must be positive with --until"},
	{func(c *collect.Config) { c.Until = untilRule("width"); c.Until.Confidence = 40 }, 2,
		"--confidence 40 out of range: use 50 to 99.9 (percent)"},
	{func(c *collect.Config) { c.Watch.Response = "x" }, 2, `--watch "x": use observe, retake or pause`},
	{func(c *collect.Config) { c.Watch.Response, c.Watch.MaxForeignPct = "observe", 101 }, 2, "--max-foreign 101: use 0 to 100 (percent)"},
	{func(c *collect.Config) { c.Watch.Response, c.Watch.Window = "observe", 0 }, 2, "--watch-window 0s must be positive"},
	{func(c *collect.Config) { c.Watch.Response, c.Watch.MaxRetakes = "retake", -1 }, 2, "--max-retakes -1 is negative"},
	{func(c *collect.Config) { c.Watch.Response, c.Watch.MaxPause = "pause", time.Millisecond }, 2,
		"--settle 250ms and --max-pause 1ms: a pause budget smaller than one settle interval could never resume"},
	{func(c *collect.Config) { c.Watch.Response, c.Watch.Rewarm = "observe", -time.Second }, 2, "--rewarm -1s is negative"},
}

func untilRule(rule string) collect.Until {
	return collect.Until{Rule: rule, MaxTime: time.Second, Confidence: 95}
}

// Every field error of the collection policy names fields that have a
// flag, and reads as it always has.
func TestConfigErrorsSpeakFlags(t *testing.T) {
	for _, tc := range configMessages {
		c := collect.DefaultConfig
		c.Watch = collect.DefaultWatch
		tc.edit(&c)
		var fe *field.Error
		if err := c.Validate(tc.k); !errors.As(err, &fe) {
			t.Errorf("%q: got %v, want a field error", tc.want, err)
			continue
		}
		for _, f := range fe.Fields() {
			if _, ok := flagNames[f]; !ok {
				t.Errorf("%q: field %s has no flag", tc.want, f)
			}
		}
		if got := fieldUsage(fe).Error(); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

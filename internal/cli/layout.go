package cli

import (
	"io/fs"
	"os"
	"strconv"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
)

// layoutFlag is --randomize-layout: on by default in the modes that start
// a process per batch.
func layoutFlag() ucli.Flag {
	return &ucli.BoolFlag{Name: "randomize-layout", Value: true, DefaultText: "true in exec and batch modes",
		Usage: "start every pair's or round's processes with " + runner.LayoutVar + " padded to a seeded length (0 to 4095 bytes, the same for every case, recorded per sample), so memory-layout bias becomes noise the interval accounts for (man fb-pair(1), LAYOUT BIAS); --randomize-layout=false fixes the environment"}
}

// layoutOf reads --randomize-layout for a mode. Worker and gotest modes
// cannot vary the layout per sample: a worker's environment is fixed when
// it starts, and a Go benchmark runs on goroutine stacks the environment
// does not move. There it is off, and asking for it is refused.
func layoutOf(c *ucli.Context, mode string) (bool, error) {
	on := c.Bool("randomize-layout")
	if mode == "exec" || mode == "batch" {
		return on, nil
	}
	if c.IsSet("randomize-layout") && on {
		why := "a worker's environment is fixed when it starts"
		if mode == "gotest" {
			why = "a Go benchmark runs on goroutine stacks that the environment does not move"
		}
		return false, usageErrorf("--randomize-layout with --%s: %s; drop the flag (it applies to exec and batch modes)", mode, why)
	}
	return false, nil
}

// commandEnv is the environment of the measured commands: the tool's own,
// with the layout variable when the layout is randomized.
func (m *measurement) commandEnv() []string {
	if !m.cfg.RandomizeLayout {
		return nil
	}
	return runner.LayoutEnv(nil)
}

// layoutRecord is the run record's layout policy: absent in the modes that
// cannot vary it, otherwise whether it was randomized and what the kernel
// randomizes itself.
func (m *measurement) layoutRecord(root fs.FS) *ndjson.Layout {
	if m.mode != "exec" && m.mode != "batch" {
		return nil
	}
	l := &ndjson.Layout{Randomized: m.cfg.RandomizeLayout}
	if l.Randomized {
		l.EnvVar, l.MaxPad, l.Note = runner.LayoutVar, collect.MaxLayoutPad, collect.LayoutNote
	}
	l.ASLR, l.NoRandomize, l.StackRandomized = kernelLayout(root)
	return l
}

// addrNoRandomize is the ADDR_NO_RANDOMIZE personality flag (setarch -R).
const addrNoRandomize = 0x0040000

// kernelLayout reads whether the kernel randomizes a new process's stack:
// /proc/sys/kernel/randomize_va_space, and this process's personality,
// which the commands inherit. Elsewhere than Linux both are unknown. With
// randomization on, Linux moves a new stack within its page as well as the
// page itself (arch_align_stack: up to 8 KiB in 16-byte steps on x86, below
// a page on arm64 and powerpc), so its alignment is random per exec.
func kernelLayout(root fs.FS) (aslr string, noRandomize bool, stack string) {
	if b, err := fs.ReadFile(root, "proc/sys/kernel/randomize_va_space"); err == nil {
		aslr = strings.TrimSpace(string(b))
	}
	if b, err := fs.ReadFile(root, "proc/self/personality"); err == nil {
		p, err := strconv.ParseUint(strings.TrimSpace(string(b)), 16, 32)
		noRandomize = err == nil && p&addrNoRandomize != 0
	}
	switch {
	case noRandomize || aslr == "0":
		stack = "no"
	case aslr == "1" || aslr == "2":
		stack = "yes"
	default:
		stack = "unknown"
	}
	return aslr, noRandomize, stack
}

// osRoot is the root the kernel files are read from.
var osRoot = os.DirFS("/")

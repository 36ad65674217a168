package measure

import (
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
)

// resolveLayout settles RandomizeLayout: on by default in the modes that
// start a process per batch. Worker and gotest modes cannot vary the
// layout per sample: a worker's environment is fixed when it starts, and
// a Go benchmark runs on goroutine stacks the environment does not move.
// There it is off, and asking for it is refused.
func (p *plan) resolveLayout() error {
	asked := p.Layout != nil && *p.Layout
	if startsProcesses(p.Mode) {
		p.RandomizeLayout = p.Layout == nil || asked
		return nil
	}
	p.RandomizeLayout = false
	if !asked {
		return nil
	}
	why := "a worker's environment is fixed when it starts"
	if p.Mode == ModeGotest {
		why = "a Go benchmark runs on goroutine stacks that the environment does not move"
	}
	return field.Errorf("Layout", true, "%s with %s: %s; drop the flag (it applies to exec and batch modes)", field.Name("Layout"), modeName(p.Mode), why)
}

// commandEnv is the environment of the measured commands: the tool's own,
// with the layout variable when the layout is randomized.
func (m *measurement) commandEnv() []string {
	if !m.RandomizeLayout {
		return nil
	}
	return runner.LayoutEnv(nil)
}

// layoutRecord is the run record's layout policy: absent in the modes that
// cannot vary it, otherwise whether it was randomized and what the kernel
// randomizes itself.
func (m *measurement) layoutRecord(root fs.FS) *ndjson.Layout {
	if !startsProcesses(m.Mode) {
		return nil
	}
	l := &ndjson.Layout{Randomized: m.RandomizeLayout}
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

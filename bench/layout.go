package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/flybench/flybench/pkg/ndjson"
)

// layoutConfig is the layout-bias section's settings (issue 14).
type layoutConfig struct {
	src       string // examples/align/align.c
	pairFlags string // fb-pair flags of every run
	reps      int    // align -n
}

// layoutRow is one fb-pair run of the section: the kernel's stack
// randomization on or off (setarch -R), a fixed environment filler of
// fill bytes, and --randomize-layout on or off.
type layoutRow struct {
	aslrOff    bool
	fill       int
	randomized bool
	seed       int
}

// layout compares one binary with a copy of itself whose path is 8 bytes
// longer: argv[0] and the exec filename both sit on the new stack, so the
// copy starts 16 bytes lower. At a fixed layout one of them may be the one
// whose loads straddle cache lines (examples/align), and fb-pair then finds
// a confident difference between identical code; with --randomize-layout
// every pair starts at another padding, and the bias becomes noise.
func (b *bench) layout(l layoutConfig) {
	section("layout bias: one binary under two path lengths (A/A), fixed vs randomized layout")
	a, c, err := b.buildAlign(l.src)
	if err != nil {
		fmt.Println("skipped:", err)
		return
	}
	setarch, why := noRandomizeCommand()
	va, _ := os.ReadFile("/proc/sys/kernel/randomize_va_space")
	fmt.Printf("A = %s -n %d, B = the same bytes as %s (16 bytes lower stack)\n", a, l.reps, filepath.Base(c))
	fmt.Printf("fb-pair %s [--randomize-layout=false | --seed S] -- A B; ALIGN_FILL=<fill bytes> in the environment; kernel randomize_va_space=%s\n",
		l.pairFlags, strings.TrimSpace(string(va)))
	if setarch == nil {
		fmt.Printf("rows with the stack fixed skipped: %s\n", why)
	}
	before := loadAverage()
	fmt.Printf("  %-10s %-5s %-11s %-24s %9s  %s\n", "stack", "fill", "layout", "verdict", "change", "95% interval")
	for _, r := range layoutRows() {
		if r.aslrOff && setarch == nil {
			continue
		}
		b.layoutRun(l, r, setarch, a, c)
	}
	fmt.Printf("  load average before and after: %s, %s\n", before, loadAverage())
	fmt.Println("  (stack fixed: setarch -R, the kernel's per-exec stack randomization off, as on systems without it;")
	fmt.Println("   stack random: the kernel moves the stack per exec by itself, so a fixed padding decides little)")
}

func layoutRows() []layoutRow {
	var rows []layoutRow
	for _, fill := range []int{0, 16, 32, 48} {
		rows = append(rows, layoutRow{aslrOff: true, fill: fill})
	}
	rows = append(rows, layoutRow{aslrOff: true, randomized: true, seed: 1}, layoutRow{aslrOff: true, randomized: true, seed: 2})
	return append(rows, layoutRow{fill: 0}, layoutRow{fill: 16}, layoutRow{randomized: true, seed: 1})
}

// layoutRun runs one row and prints its verdict and interval.
func (b *bench) layoutRun(l layoutConfig, r layoutRow, setarch []string, a, c string) {
	flags := append([]string{"--progress", "none"}, strings.Fields(l.pairFlags)...)
	layout := "fixed"
	if r.randomized {
		layout = fmt.Sprintf("random s=%d", r.seed)
		flags = append(flags, "--seed", fmt.Sprint(r.seed))
	} else {
		flags = append(flags, "--randomize-layout=false")
	}
	reps := fmt.Sprintf(" -n %d", l.reps)
	var argv []string
	if r.aslrOff {
		argv = append(argv, setarch...)
	}
	argv = append(append(append(argv, b.tool("fb-pair")), flags...), "--", a+reps, c+reps)
	pair := exec.Command(argv[0], argv[1:]...)
	pair.Env = append(os.Environ(), "ALIGN_FILL="+strings.Repeat("f", r.fill))
	stack := "random"
	if r.aslrOff {
		stack = "fixed (-R)"
	}
	o := b.analyzeStream(pair)
	if o.err != nil {
		fmt.Printf("  %-10s %-5d %-11s error: %v\n", stack, r.fill, layout, o.err)
		return
	}
	fmt.Printf("  %-10s %-5d %-11s %-24s %+8.2f%%  %+.2f%% .. %+.2f%%\n", stack, r.fill, layout, o.verdict, o.change, o.ci[0], o.ci[1])
}

// analyzeStream runs a prepared fb-pair command, then fb-analyze on its
// stream, and reads the comparison.
func (b *bench) analyzeStream(pair *exec.Cmd) outcome {
	var stream, pairErr, out, analyzeErr bytes.Buffer
	pair.Stdout, pair.Stderr = &stream, &pairErr
	if err := runChild(pair); err != nil {
		return outcome{err: toolError("fb-pair", err, pairErr.Bytes())}
	}
	analyze := exec.Command(b.tool("fb-analyze"))
	analyze.Stdin, analyze.Stdout, analyze.Stderr = &stream, &out, &analyzeErr
	if err := runChild(analyze); err != nil {
		return outcome{err: toolError("fb-analyze", err, analyzeErr.Bytes())}
	}
	var o outcome
	o.err = scanRecords(out.Bytes(), func(typ string, raw []byte) error {
		if typ != ndjson.TypeComparison {
			return nil
		}
		var k ndjson.Comparison
		if err := json.Unmarshal(raw, &k); err != nil {
			return err
		}
		o.verdict, o.change, o.ci = string(k.Verdict), k.ChangePct, k.ChangeCI
		return nil
	})
	if o.err == nil && o.verdict == "" {
		o.err = fmt.Errorf("fb-analyze wrote no comparison record")
	}
	return o
}

// buildAlign compiles examples/align with cc into the bench's directory
// and copies it under a name 8 bytes longer.
func (b *bench) buildAlign(src string) (string, string, error) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		return "", "", fmt.Errorf("no C compiler (cc) to build %s", src)
	}
	a := filepath.Join(b.tmp, "align")
	if out, err := exec.Command(cc, "-O2", "-o", a, src).CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("cc %s: %v %s", src, err, bytes.TrimSpace(out))
	}
	data, err := os.ReadFile(a)
	if err != nil {
		return "", "", err
	}
	c := a + "-16bytes"
	return a, c, os.WriteFile(c, data, 0o755)
}

// noRandomizeCommand is the prefix that runs a command with the
// ADDR_NO_RANDOMIZE personality (setarch -R), or nil and why not.
func noRandomizeCommand() ([]string, string) {
	if runtime.GOOS != "linux" {
		return nil, "setarch -R is Linux's"
	}
	setarch, err := exec.LookPath("setarch")
	if err != nil {
		return nil, "setarch not installed (util-linux)"
	}
	prefix := []string{setarch, "-R"}
	probe := exec.Command(prefix[0], append(prefix[1:], "cat", "/proc/self/personality")...)
	out, err := probe.Output()
	p, perr := strconv.ParseUint(strings.TrimSpace(string(out)), 16, 32)
	if err != nil || perr != nil || p&0x0040000 == 0 {
		return nil, fmt.Sprintf("setarch -R did not take effect (%v %s)", err, bytes.TrimSpace(out))
	}
	return prefix, ""
}

// loadAverage is the first three fields of /proc/loadavg, or "unknown".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}

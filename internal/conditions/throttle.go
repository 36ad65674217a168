package conditions

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// cpuRoot holds one directory per logical CPU, relative to "/".
const cpuRoot = "sys/devices/system/cpu"

// ThrottleSnapshot is one reading of the thermal-throttle counters, keyed by
// the object that owns each counter: "cpuN core" for a logical CPU's core
// counter, "package P" for a package's (read once per package).
type ThrottleSnapshot struct {
	// Events holds *_throttle_count values; Millis holds
	// *_throttle_total_time_ms values, which older kernels lack.
	Events map[string]int64
	Millis map[string]int64
	// Unsupported says why no counter can exist on this platform; "" when
	// the counters were looked for.
	Unsupported string
}

// ThrottleDetector reads the cumulative thermal-throttle counters.
type ThrottleDetector interface {
	Throttle() ThrottleSnapshot
}

// ThrottleCounters reads /sys/devices/system/cpu/cpu*/thermal_throttle
// through Root, the file system rooted at "/". A counter that cannot be read
// or parsed is left out of the snapshot, which the continuity check then
// sees as a disappearance.
type ThrottleCounters struct {
	Root fs.FS
}

// Throttle reads every CPU's counters. Package counters repeat in every CPU
// of the package, so each package is read from the first CPU that has it;
// a CPU whose package cannot be read counts its package counters alone,
// which can only overstate throttling, never hide it.
func (t ThrottleCounters) Throttle() ThrottleSnapshot {
	s := ThrottleSnapshot{Events: map[string]int64{}, Millis: map[string]int64{}}
	for _, cpu := range t.cpus() {
		dir := path.Join(cpuRoot, fmt.Sprintf("cpu%d", cpu), "thermal_throttle")
		core := fmt.Sprintf("cpu%d core", cpu)
		pkg := t.packageKey(cpu)
		t.read(s.Events, core, dir, "core_throttle_count")
		t.read(s.Millis, core, dir, "core_throttle_total_time_ms")
		t.read(s.Events, pkg, dir, "package_throttle_count")
		t.read(s.Millis, pkg, dir, "package_throttle_total_time_ms")
	}
	return s
}

// cpus lists the logical CPUs that have a thermal_throttle directory, in
// numeric order.
func (t ThrottleCounters) cpus() []int {
	entries, err := fs.ReadDir(t.Root, cpuRoot)
	if err != nil {
		return nil
	}
	var cpus []int
	for _, e := range entries {
		n, ok := cpuNumber(e.Name())
		if !ok {
			continue
		}
		dir := path.Join(cpuRoot, e.Name(), "thermal_throttle")
		if fi, err := fs.Stat(t.Root, dir); err == nil && fi.IsDir() {
			cpus = append(cpus, n)
		}
	}
	sort.Ints(cpus)
	return cpus
}

// cpuNumber parses a "cpuN" directory name.
func cpuNumber(name string) (int, bool) {
	digits, ok := strings.CutPrefix(name, "cpu")
	if !ok || digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil
}

// packageKey names the package a CPU belongs to.
func (t ThrottleCounters) packageKey(cpu int) string {
	file := path.Join(cpuRoot, fmt.Sprintf("cpu%d", cpu), "topology", "physical_package_id")
	if id, ok := readCounter(t.Root, file); ok {
		return fmt.Sprintf("package %d", id)
	}
	return fmt.Sprintf("cpu%d package", cpu)
}

// read stores one counter under key unless key already has a value.
func (t ThrottleCounters) read(into map[string]int64, key, dir, name string) {
	if _, seen := into[key]; seen {
		return
	}
	if v, ok := readCounter(t.Root, path.Join(dir, name)); ok {
		into[key] = v
	}
}

// readCounter parses a file holding one non-negative decimal integer.
func readCounter(root fs.FS, name string) (int64, bool) {
	b, err := fs.ReadFile(root, name)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return v, err == nil && v >= 0
}

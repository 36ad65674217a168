package runner

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A run's charged memory is what the kernel's memory controller charges to
// the cgroup the run is born in: its whole process tree's anonymous memory,
// the page cache it brings in and the kernel memory it causes (page tables,
// among others). It is not a resident set: a library page another process
// loaded first is charged there, and a file the run reads is. Each command
// gets its own cgroup, made once; before a batch the cgroup's peak is reset
// to its current charge (the page cache earlier batches left, for one), and
// after it the peak less that level is the batch's mem_peak: the largest
// charge any moment of the batch added.
//
// Children are born in the cgroup: under cgroup v2 through clone3's
// CLONE_INTO_CGROUP (SysProcAttr.UseCgroupFD), under v1 because the thread
// that forks them joins the cgroup for the batch (a v1 cgroup holds
// threads, and a child starts in its parent thread's; the tool's own memory
// stays charged where it was, to its thread-group leader's cgroup). Joining
// and leaving cost a write each, outside the timed region.

// MemCgroups is where this process makes its commands' cgroups, chosen once
// (ChooseCgroups).
type MemCgroups struct {
	// Version is 1 or 2 (the cgroup hierarchy with the memory controller
	// used), 0 when none can be used.
	Version int
	// Parent is the directory the commands' cgroups are made in.
	Parent string
	// Home (v1) is the cgroup a joined thread returns to: this process's.
	Home string
	// Err is why none can be used.
	Err error
}

// Method names the mechanism for the run record: "cgroup_v2" or
// "cgroup_v1".
func (m MemCgroups) Method() string {
	if m.Version == 0 {
		return ""
	}
	return "cgroup_v" + strconv.Itoa(m.Version)
}

// Note says where the cgroups are made, for the run record.
func (m MemCgroups) Note() string {
	if m.Version == 0 {
		return ""
	}
	return "a cgroup per command under " + m.Parent
}

// ChooseCgroups finds, once, where this process can make memory cgroups.
var ChooseCgroups = sync.OnceValue(func() MemCgroups {
	m := findCgroupsHere()
	if m.Err == nil {
		m.Err = tryMkdir(m.Parent)
	}
	if m.Err == nil {
		removeStale(m.Parent)
	}
	if m.Err != nil {
		return MemCgroups{Err: m.Err}
	}
	return m
})

// tryMkdir checks that a cgroup can be made in dir.
func tryMkdir(dir string) error {
	probe := filepath.Join(dir, fmt.Sprintf("flybench-probe-%d", os.Getpid()))
	if err := os.Mkdir(probe, 0o755); err != nil {
		return fmt.Errorf("cannot make a cgroup in %s: %w", dir, unwrapPath(err))
	}
	if err := os.Remove(probe); err != nil {
		return fmt.Errorf("cannot remove the cgroup %s: %w", probe, unwrapPath(err))
	}
	return nil
}

// removeStale removes the empty cgroups a killed flybench left in dir
// (flybench-PID-N of a process that is gone); a cgroup still in use
// cannot be removed, and any error leaves it.
func removeStale(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		var pid, n int
		if _, err := fmt.Sscanf(e.Name(), "flybench-%d-%d", &pid, &n); err != nil || !e.IsDir() || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		os.Remove(filepath.Join(dir, e.Name()))
	}
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// FindCgroups reads where the memory controller is mounted and which of its
// cgroups this process is in, from a mountinfo file and a /proc/PID/cgroup
// file, and picks the parent of the commands' cgroups: under v2, this
// process's cgroup when it gives its children the memory controller
// (cgroup.subtree_control), else its parent when this cgroup has the
// controller (its siblings have it too, and a cgroup that distributes
// memory holds no processes of its own to mind); under v1, this process's
// memory cgroup. v2 is preferred. The result's Err says why neither works.
func FindCgroups(mountinfo, procCgroup string) MemCgroups {
	mounts, err := readCgroupMounts(mountinfo)
	if err != nil {
		return MemCgroups{Err: err}
	}
	paths, err := readProcCgroup(procCgroup)
	if err != nil {
		return MemCgroups{Err: err}
	}
	var why []string
	if m, ok := mounts["cgroup2"]; !ok {
		why = append(why, "no cgroup v2 hierarchy is mounted")
	} else if p, ok := paths[""]; ok {
		own := m.dir(p)
		switch {
		case hasController(filepath.Join(own, "cgroup.subtree_control")):
			return MemCgroups{Version: 2, Parent: own}
		case hasController(filepath.Join(own, "cgroup.controllers")) && own != m.point:
			return MemCgroups{Version: 2, Parent: filepath.Dir(own)}
		}
		why = append(why, fmt.Sprintf("the cgroup v2 hierarchy at %s has no memory controller for %s", m.point, own))
	}
	if m, ok := mounts["memory"]; !ok {
		why = append(why, "no cgroup v1 memory hierarchy is mounted")
	} else if p, ok := paths["memory"]; !ok {
		why = append(why, procCgroup+" names no v1 memory cgroup")
	} else {
		own := m.dir(p)
		return MemCgroups{Version: 1, Parent: own, Home: own}
	}
	return MemCgroups{Err: fmt.Errorf("%s", strings.Join(why, "; "))}
}

// hasController says whether a controllers file lists memory.
func hasController(file string) bool {
	data, err := os.ReadFile(file)
	return err == nil && slices.Contains(strings.Fields(string(data)), "memory")
}

// cgroupMount is a mounted cgroup hierarchy: where, and which of its
// cgroups is the mount's root.
type cgroupMount struct{ point, root string }

// dir is the directory of cgroup path p (as /proc/PID/cgroup names it)
// under the mount.
func (m cgroupMount) dir(p string) string {
	rel := p
	if m.root != "/" {
		rel = strings.TrimPrefix(p, m.root)
	}
	return filepath.Join(m.point, rel)
}

// readCgroupMounts finds the cgroup v2 mount (key "cgroup2") and the v1
// memory controller's (key "memory") in a mountinfo file.
func readCgroupMounts(mountinfo string) (map[string]cgroupMount, error) {
	f, err := os.Open(mountinfo)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]cgroupMount{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		fields, fs := strings.Fields(pre), strings.Fields(post)
		if !ok || len(fields) < 5 || len(fs) < 3 {
			continue
		}
		m := cgroupMount{point: fields[4], root: fields[3]}
		switch {
		case fs[0] == "cgroup2":
			out["cgroup2"] = m
		case fs[0] == "cgroup" && slices.Contains(strings.Split(fs[2], ","), "memory"):
			out["memory"] = m
		}
	}
	return out, sc.Err()
}

// readProcCgroup reads a /proc/PID/cgroup file: each hierarchy's
// controllers ("" for v2's line 0::) and this process's cgroup in it.
func readProcCgroup(file string) (map[string]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			out[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			out[c] = parts[2]
		}
	}
	return out, nil
}

// memcg is a Command's cgroup.
type memcg struct {
	MemCgroups
	dir  string
	fd   int      // v2: the cgroup directory, for CLONE_INTO_CGROUP; -1 otherwise
	peak *os.File // v2: memory.peak, reset through this descriptor
	base int64    // the charge when the batch began
	// joined (v1) says the calling thread is in the cgroup and locked to
	// its goroutine.
	joined bool
}

// cgroupSeq numbers the commands' cgroups within this process.
var cgroupSeq struct {
	sync.Mutex
	n int
}

// setupCgroup makes the command's cgroup. Failing, it leaves the error for
// every batch's mem_peak and the command runs without one.
func (c *Command) setupCgroup() {
	m := ChooseCgroups()
	c.cg = &memcg{MemCgroups: m, fd: -1}
	if m.Err != nil {
		return
	}
	cgroupSeq.Lock()
	cgroupSeq.n++
	name := fmt.Sprintf("flybench-%d-%d", os.Getpid(), cgroupSeq.n)
	cgroupSeq.Unlock()
	c.cg.dir = filepath.Join(m.Parent, name)
	if err := os.Mkdir(c.cg.dir, 0o755); err != nil {
		c.cg.Err = fmt.Errorf("make the cgroup %s: %w", c.cg.dir, unwrapPath(err))
		c.cg.dir = ""
		return
	}
	if m.Version == 2 {
		c.cg.Err = c.openCgroupV2()
	}
}

// cgroupBefore starts a batch's charge: it joins the cgroup (v1), resets
// its peak and reads the charge the batch starts from. It runs before the
// batch's first clock read; cgroupLeave undoes the join.
func (c *Command) cgroupBefore() {
	if c.cg == nil {
		return
	}
	c.usage.ChargedMethod = c.cg.Method()
	if c.cg.Err != nil {
		c.usage.ChargedErr = c.cg.Err
		return
	}
	var err error
	if c.cg.Version == 1 {
		err = c.joinCgroup()
	}
	if err == nil {
		err = c.resetCgroupPeak()
	}
	if err == nil {
		c.cg.base, err = c.readCgroup(currentFile(c.cg.Version))
	}
	c.usage.ChargedErr = err
}

// cgroupAfter reads the batch's peak charge, after its last clock read.
func (c *Command) cgroupAfter() {
	if c.cg == nil || c.usage.ChargedErr != nil {
		return
	}
	peak, err := c.readCgroupPeak()
	if err != nil {
		c.usage.ChargedErr = err
		return
	}
	c.usage.ChargedPeakBytes = max(peak-c.cg.base, 0)
}

// currentFile is the file of a cgroup's present charge.
func currentFile(version int) string {
	if version == 2 {
		return "memory.current"
	}
	return "memory.usage_in_bytes"
}

// readCgroup reads a count from a file of the command's cgroup.
func (c *Command) readCgroup(name string) (int64, error) {
	file := filepath.Join(c.cg.dir, name)
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	return parseCount(file, data)
}

func parseCount(file string, data []byte) (int64, error) {
	text := strings.TrimSpace(string(data))
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a count", file, text)
	}
	return v, nil
}

// closeCgroup removes the command's cgroup; its children have exited.
func (c *Command) closeCgroup() error {
	if c.cg == nil || c.cg.dir == "" {
		return nil
	}
	c.cgroupLeave()
	var errs []error
	if c.cg.peak != nil {
		errs = append(errs, c.cg.peak.Close())
	}
	c.closeCgroupFD()
	if err := os.Remove(c.cg.dir); err != nil {
		errs = append(errs, fmt.Errorf("remove the cgroup %s: %w", c.cg.dir, unwrapPath(err)))
	}
	c.cg.dir = ""
	return errors.Join(errs...)
}

package claim

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"

	"golang.org/x/sys/unix"
)

// Status is what a reader sees in a claim directory, without locking.
type Status struct {
	Dir    string `json:"dir"`
	Exists bool   `json:"exists"`
	// Private: the directory is in a private mount (see PrivateMount).
	Private     bool   `json:"namespace_scoped"`
	ScopeReason string `json:"scope_reason,omitempty"`
	// LocksRead: /proc/locks could be read, so holders are known.
	LocksRead bool         `json:"locks_read"`
	Files     []FileStatus `json:"files"`
}

// FileStatus is one claim file.
type FileStatus struct {
	Name string `json:"name"`
	Path string `json:"path"`
	// State is StateFree, LockShared, LockExclusive, or StateUnknown when
	// /proc/locks could not be read.
	State   string   `json:"state"`
	Holders []Holder `json:"holders,omitempty"`
	Waiters []Holder `json:"waiters,omitempty"`
	Content Content  `json:"content"`
	// Current: the content names the file's exclusive holder; otherwise it
	// is left from an earlier holder, or never was this holder's.
	Current bool `json:"content_current"`
	// Problem: why the file cannot serve as a claim file.
	Problem string `json:"problem,omitempty"`
}

// Holder is a process holding, or waiting for, a lock on a claim file.
type Holder struct {
	PID int `json:"pid"`
	// Mode is LockExclusive or LockShared.
	Mode string `json:"mode"`
}

// Lock modes of a holder, which are also the states of a held file, and
// the states of a file nobody holds or whose holders cannot be read.
const (
	LockExclusive = "exclusive"
	LockShared    = "shared"
	StateFree     = "free"
	StateUnknown  = "unknown"
)

// Status lists every claim file in dir: who holds it (from /proc/locks)
// and its content. It never takes a lock and never creates anything.
func (h Host) Status(path string) (*Status, error) {
	st := &Status{Dir: path, Files: []FileStatus{}}
	d, err := openDir(path, false)
	if errors.Is(err, ErrNoDir) {
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	defer d.close()
	st.Exists = true
	if private, reason, err := h.private(d); err != nil {
		st.ScopeReason = "mount scope not checked: " + err.Error()
	} else {
		st.Private, st.ScopeReason = private, reason
	}
	st.Files, st.LocksRead, err = h.files(d)
	return st, err
}

// files reads every claim file of d, machine first, then CPUs in order.
func (h Host) files(d *dir) ([]FileStatus, bool, error) {
	names, err := d.names()
	if err != nil {
		return nil, false, err
	}
	entries, lockErr := h.lockEntries()
	files := make([]FileStatus, 0, len(names))
	for _, name := range names {
		files = append(files, d.fileStatus(name, entries, lockErr == nil))
	}
	return files, lockErr == nil, nil
}

// names lists the claim files in d in order: machine, then cpu.N by N.
func (d *dir) names() ([]string, error) {
	fd, err := unix.FcntlInt(uintptr(d.fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("read claim directory %q: %w", d.path, err)
	}
	f := os.NewFile(uintptr(fd), d.path)
	defer f.Close()
	if _, err := f.Seek(0, 0); err != nil { // the duplicate shares the offset
		return nil, fmt.Errorf("read claim directory %q: %w", d.path, err)
	}
	all, err := f.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("read claim directory %q: %w", d.path, err)
	}
	names := slices.DeleteFunc(all, func(n string) bool { return !isClaimFile(n) })
	slices.SortFunc(names, func(a, b string) int {
		na, ca := cpuOfFile(a)
		nb, cb := cpuOfFile(b)
		if ca != cb { // machine first
			if ca {
				return 1
			}
			return -1
		}
		return cmp.Compare(na, nb)
	})
	return names, nil
}

func (h Host) lockEntries() ([]LockEntry, error) {
	r, err := h.locks()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return ParseLocks(r)
}

// fileStatus reads one claim file without locking it.
func (d *dir) fileStatus(name string, entries []LockEntry, locksRead bool) FileStatus {
	fs := FileStatus{Name: name, Path: d.pathOf(name), State: StateUnknown}
	if err := d.checkEntry(name); err != nil {
		fs.Problem = err.Error()
		return fs
	}
	fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		fs.Problem = d.openError(name, err).Error()
		return fs
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		fs.Problem = pathErrorf(fs.Path, "fstat: %v", errnoText(err)).Error()
		return fs
	}
	if err := fileModeError(fs.Path, uint32(st.Mode)); err != nil {
		fs.Problem = err.Error()
		return fs
	}
	fs.Content = readContent(fd)
	if locksRead {
		fs.Holders, fs.Waiters = lockersOf(entries, uint64(st.Dev), st.Ino)
		fs.State = stateOf(fs.Holders)
		fs.Current = fs.State == LockExclusive && fs.Content.PID != 0 && fs.Content.PID == fs.Holders[0].PID
	}
	return fs
}

// lockersOf finds the flocks on one file. /proc/locks names a file by
// device and inode; where the device differs from what stat(2) reports
// (overlayfs, btrfs subvolumes) the inode alone is used.
func lockersOf(entries []LockEntry, dev, ino uint64) (holders, waiters []Holder) {
	match := func(exact bool) {
		for _, e := range entries {
			if e.Kind != "FLOCK" || e.Inode != ino {
				continue
			}
			if exact && (e.Major != unix.Major(dev) || e.Minor != unix.Minor(dev)) {
				continue
			}
			h := Holder{PID: e.PID, Mode: LockShared}
			if e.Write {
				h.Mode = LockExclusive
			}
			if e.Waiting {
				waiters = append(waiters, h)
			} else {
				holders = append(holders, h)
			}
		}
	}
	if match(true); len(holders) == 0 && len(waiters) == 0 {
		match(false)
	}
	return holders, waiters
}

func stateOf(holders []Holder) string {
	switch {
	case len(holders) == 0:
		return StateFree
	case holders[0].Mode == LockExclusive:
		return LockExclusive
	}
	return LockShared
}

// holders describes who holds the file that blocked a claim attempt: for
// each holder its current content if any claim file has it, else its pid
// and lock mode. Shared holders of the machine file are per-CPU claims,
// whose content is in their CPU files.
func (h Host) holders(d *dir, blocking string) []string {
	files, locksRead, err := h.files(d)
	if err != nil {
		return nil
	}
	i := slices.IndexFunc(files, func(f FileStatus) bool { return f.Name == blocking })
	if i < 0 {
		return nil
	}
	if !locksRead {
		if files[i].Content.PID == 0 {
			return nil
		}
		return []string{files[i].Content.Describe() + " (from the file's content; /proc/locks unreadable)"}
	}
	byPID := map[int]string{}
	for _, f := range files {
		if f.Current {
			byPID[f.Content.PID] = f.Content.Describe()
		}
	}
	var out []string
	for _, holder := range files[i].Holders {
		s, ok := byPID[holder.PID]
		if !ok {
			s = fmt.Sprintf("pid %d (%s lock on %s)", holder.PID, holder.Mode, blocking)
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

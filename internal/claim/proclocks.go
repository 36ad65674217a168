package claim

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// LockEntry is one line of /proc/locks.
type LockEntry struct {
	// Kind is FLOCK, POSIX, OFDLCK, LEASE, ...
	Kind string
	// Write is an exclusive lock; otherwise shared.
	Write bool
	PID   int
	Major uint32
	Minor uint32
	Inode uint64
	// Waiting: a blocked request ("->" lines), not a held lock.
	Waiting bool
}

// ParseLocks reads /proc/locks:
//
//	1: FLOCK  ADVISORY  WRITE 26391 fe:00:9978447 0 EOF
//	1: -> FLOCK  ADVISORY  WRITE 26400 fe:00:9978447 0 EOF
//
// Lines it cannot read are skipped.
func ParseLocks(r io.Reader) ([]LockEntry, error) {
	var entries []LockEntry
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if e, ok := parseLockLine(sc.Text()); ok {
			entries = append(entries, e)
		}
	}
	return entries, sc.Err()
}

func parseLockLine(line string) (LockEntry, bool) {
	f := strings.Fields(line)
	if len(f) < 2 || !strings.HasSuffix(f[0], ":") {
		return LockEntry{}, false
	}
	f = f[1:]
	var e LockEntry
	for len(f) > 0 && f[0] == "->" {
		e.Waiting = true
		f = f[1:]
	}
	if len(f) < 5 {
		return LockEntry{}, false
	}
	e.Kind = f[0]
	e.Write = f[2] == "WRITE"
	pid, err := strconv.Atoi(f[3])
	if err != nil {
		return LockEntry{}, false
	}
	e.PID = pid
	id := strings.Split(f[4], ":")
	if len(id) != 3 {
		return LockEntry{}, false
	}
	major, err1 := strconv.ParseUint(id[0], 16, 32)
	minor, err2 := strconv.ParseUint(id[1], 16, 32)
	ino, err3 := strconv.ParseUint(id[2], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return LockEntry{}, false
	}
	e.Major, e.Minor, e.Inode = uint32(major), uint32(minor), ino
	return e, true
}

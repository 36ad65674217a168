package perf

import (
	"encoding/binary"
	"fmt"
)

// group is one open counter group, read as a whole with PERF_FORMAT_GROUP.
type group struct {
	fds  []int    // leader first
	axes []string // event axis per fd
	ids  []uint64 // kernel event id per fd
	buf  []byte   // read buffer sized for the group
}

// Snapshot is one cumulative read of every open group. Only the difference
// of two snapshots of the same session means anything.
type Snapshot struct {
	owner *Session
	reads []groupRead
}

// groupRead is one group's cumulative counts, enabled and running times.
type groupRead struct {
	err              error // the read failed; nothing else is set
	enabled, running uint64
	values           [maxMembers]uint64
	seen             [maxMembers]bool // the read carried this slot's id
}

// Snapshot reads every open group: one read(2) per group. Call it outside
// the timed region, immediately before and after a batch.
func (s *Session) Snapshot() Snapshot {
	snap := Snapshot{owner: s, reads: make([]groupRead, len(s.groups))}
	for i, g := range s.groups {
		snap.reads[i] = s.readGroup(g)
	}
	return snap
}

func (s *Session) readGroup(g *group) groupRead {
	n, err := s.sys.read(g.fds[0], g.buf)
	if err != nil {
		return groupRead{err: fmt.Errorf("read perf group %s: %w", g.axes[0], err)}
	}
	r, err := parseGroup(g.buf[:n], g.ids)
	if err != nil {
		return groupRead{err: fmt.Errorf("read perf group %s: %w", g.axes[0], err)}
	}
	return r
}

// groupReadSize is the size of a group read with readFormat:
// nr, time_enabled, time_running, then {value, id} per member.
func groupReadSize(members int) int { return 8 * (3 + 2*members) }

// parseGroup decodes a PERF_FORMAT_GROUP read and places each value in the
// slot of the member whose id it carries.
func parseGroup(b []byte, ids []uint64) (groupRead, error) {
	if len(b) < groupReadSize(0) {
		return groupRead{}, fmt.Errorf("short group read: %d bytes", len(b))
	}
	u64 := func(i int) uint64 { return binary.NativeEndian.Uint64(b[8*i:]) }
	nr := u64(0)
	if nr > uint64(len(b)) || len(b) < groupReadSize(int(nr)) {
		return groupRead{}, fmt.Errorf("group read of %d bytes cannot hold %d events", len(b), nr)
	}
	r := groupRead{enabled: u64(1), running: u64(2)}
	for k := range int(nr) {
		value, id := u64(3+2*k), u64(4+2*k)
		for slot, want := range ids {
			if want == id {
				r.values[slot], r.seen[slot] = value, true
			}
		}
	}
	return r, nil
}

//go:build linux

package perf

import (
	"encoding/binary"
	"errors"

	"golang.org/x/sys/unix"
)

// fakeSys is an injected kernel: opens fail as fail says, reads return the
// counts the test sets.
type fakeSys struct {
	fail     func(a attr, groupFd int) error // nil: every open succeeds
	idErr    error
	paranoid string // contents of perf_event_paranoid; "" means unreadable
	dirs     map[string]bool
	readErr  map[int]error // by leader fd

	opens   []openCall
	events  map[int]*fakeEvent // open fds
	order   []int              // open fds in open order
	closed  []int
	nextFd  int
	settled int            // reschedule calls
	enabled map[int]uint64 // by leader fd
	running map[int]uint64
}

type openCall struct {
	a       attr
	groupFd int
	err     error
}

type fakeEvent struct {
	a      attr
	leader int
	value  uint64
}

func newFake() *fakeSys {
	return &fakeSys{paranoid: "2\n", dirs: map[string]bool{}, readErr: map[int]error{},
		events: map[int]*fakeEvent{}, nextFd: 100, enabled: map[int]uint64{}, running: map[int]uint64{}}
}

func (f *fakeSys) open(a attr, groupFd int) (int, error) {
	var err error
	if f.fail != nil {
		err = f.fail(a, groupFd)
	}
	f.opens = append(f.opens, openCall{a, groupFd, err})
	if err != nil {
		return -1, err
	}
	fd := f.nextFd
	f.nextFd++
	leader := groupFd
	if leader < 0 {
		leader = fd
	}
	f.events[fd] = &fakeEvent{a: a, leader: leader}
	f.order = append(f.order, fd)
	return fd, nil
}

// fakeID maps fds to ids that differ from the fds.
func fakeID(fd int) uint64 { return uint64(fd)*7 + 3 }

func (f *fakeSys) id(fd int) (uint64, error) {
	if f.idErr != nil {
		return 0, f.idErr
	}
	return fakeID(fd), nil
}

// read lays out a PERF_FORMAT_GROUP read of the leader's group, members in
// reverse open order so parsing must go by id.
func (f *fakeSys) read(fd int, buf []byte) (int, error) {
	if err := f.readErr[fd]; err != nil {
		return 0, err
	}
	var members []int
	for _, m := range f.order {
		if e, ok := f.events[m]; ok && e.leader == fd {
			members = append([]int{m}, members...)
		}
	}
	out := []uint64{uint64(len(members)), f.enabled[fd], f.running[fd]}
	for _, m := range members {
		out = append(out, f.events[m].value, fakeID(m))
	}
	if len(buf) < 8*len(out) {
		return 0, unix.ENOSPC
	}
	for i, v := range out {
		binary.NativeEndian.PutUint64(buf[8*i:], v)
	}
	return 8 * len(out), nil
}

func (f *fakeSys) close(fd int) error {
	if _, ok := f.events[fd]; !ok {
		return errors.New("bad fd")
	}
	delete(f.events, fd)
	f.closed = append(f.closed, fd)
	return nil
}

func (f *fakeSys) reschedule() { f.settled++ }

func (f *fakeSys) exists(path string) bool { return f.dirs[path] }

func (f *fakeSys) readFile(path string) ([]byte, error) {
	if path != paranoidPath || f.paranoid == "" {
		return nil, unix.ENOENT
	}
	return []byte(f.paranoid), nil
}

// fdOf returns the open fd of the event with the given type and config.
func (f *fakeSys) fdOf(typ uint32, config uint64) int {
	for _, fd := range f.order {
		if e, ok := f.events[fd]; ok && e.a.Type == typ && e.a.Config == config {
			return fd
		}
	}
	return -1
}

// set gives an event its cumulative count, if it is open.
func (f *fakeSys) set(typ uint32, config uint64, v uint64) {
	if e, ok := f.events[f.fdOf(typ, config)]; ok {
		e.value = v
	}
}

// times sets a group's cumulative enabled and running times.
func (f *fakeSys) times(leaderTyp uint32, leaderConfig uint64, enabled, running uint64) {
	fd := f.fdOf(leaderTyp, leaderConfig)
	f.enabled[fd], f.running[fd] = enabled, running
}

// failWhen fails opens of one event (any attributes) with errno.
func failWhen(typ uint32, config uint64, errno unix.Errno) func(attr, int) error {
	return func(a attr, _ int) error {
		if a.Type == typ && a.Config == config {
			return errno
		}
		return nil
	}
}

// failFull fails opens of one event with the full attribute set (inherit)
// with errno, and its bare re-probe with reprobe (nil: it opens).
func failFull(typ uint32, config uint64, errno unix.Errno, reprobe error) func(attr, int) error {
	return func(a attr, _ int) error {
		switch {
		case a.Type != typ || a.Config != config:
			return nil
		case a.Inherit:
			return errno
		}
		return reprobe
	}
}

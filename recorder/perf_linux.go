package recorder

import (
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// perfReason is empty: Linux has perf_event_open.
const perfReason = ""

// perfSlots is the number of OS threads the process-wide counter table
// holds; a thread beyond them gets probe_failed on the perf axes.
const perfSlots = 1024

// perfSlot is one OS thread's counter group: the group leader's
// descriptor (-1 when opening failed, so it is not retried), published
// before tid, which a lookup compares without the lock.
type perfSlot struct {
	tid atomic.Int32
	fd  int32
}

// perfTable maps OS thread ids to their counter groups, by open addressing
// on the id. Lookups load atomically and take no lock; insertions take mu.
// The groups stay open for the life of the process, shared by every
// recorder, since a counter belongs to a thread, not to a recording.
var perfTable struct {
	mu    sync.Mutex
	slots [perfSlots]perfSlot
}

// perfEvents are the software events of a group, in the order of
// perfSnap: PERF_COUNT_SW_TASK_CLOCK, _CONTEXT_SWITCHES, _PAGE_FAULTS.
var perfEvents = [nPerf]uint64{1, 3, 2}

// perfAttr is struct perf_event_attr up to PERF_ATTR_SIZE_VER0 (64
// bytes), laid out by hand.
type perfAttr struct {
	typ, size    uint32
	config       uint64
	samplePeriod uint64
	sampleType   uint64
	readFormat   uint64
	flags        uint64
	wakeup, bpT  uint32
	bpAddr       uint64
}

const (
	perfTypeSoftware  = 1
	perfFormatGroup   = 1 << 3
	perfFlagExcludeHV = 1 << 6
	perfFlagFdCloexec = 1 << 3
)

// perfOpen opens event i of thread tid's group (leader -1 opens the
// leader): counting, enabled, kernel and user time, hypervisor excluded.
func perfOpen(tid int32, i int, leader int32) (int32, syscall.Errno) {
	attr := perfAttr{typ: perfTypeSoftware, size: uint32(unsafe.Sizeof(perfAttr{})), config: perfEvents[i],
		readFormat: perfFormatGroup, flags: perfFlagExcludeHV}
	fd, _, errno := syscall.Syscall6(syscall.SYS_PERF_EVENT_OPEN, uintptr(unsafe.Pointer(&attr)),
		uintptr(tid), ^uintptr(0), uintptr(leader), perfFlagFdCloexec, 0)
	return int32(fd), errno
}

// perfOpenGroup opens the three events of thread tid as one group,
// closing what it opened when one fails. The members stay open; the
// group is read through its leader.
func perfOpenGroup(tid int32) (int32, syscall.Errno) {
	var fds [nPerf]int32
	for i := range nPerf {
		leader := int32(-1)
		if i > 0 {
			leader = fds[0]
		}
		fd, errno := perfOpen(tid, i, leader)
		if errno != 0 {
			for _, open := range fds[:i] {
				syscall.Close(int(open))
			}
			return -1, errno
		}
		fds[i] = fd
	}
	return fds[0], 0
}

// perfGroup is thread tid's group leader, opened on its first use; -1
// when it could not be opened or the table is full.
func perfGroup(tid int32) int32 {
	h := uint32(tid) * 2654435761 % perfSlots
	for i := range uint32(perfSlots) {
		s := &perfTable.slots[(h+i)%perfSlots]
		switch s.tid.Load() {
		case tid:
			return s.fd
		case 0:
			return perfInsert(tid)
		}
	}
	return -1
}

// perfInsert opens thread tid's group and files it in the first free
// slot of its probe sequence, under the table's lock.
func perfInsert(tid int32) int32 {
	perfTable.mu.Lock()
	defer perfTable.mu.Unlock()
	h := uint32(tid) * 2654435761 % perfSlots
	for i := range uint32(perfSlots) {
		s := &perfTable.slots[(h+i)%perfSlots]
		switch s.tid.Load() {
		case tid:
			return s.fd
		case 0:
			fd, _ := perfOpenGroup(tid)
			s.fd = fd
			s.tid.Store(tid)
			return fd
		}
	}
	return -1
}

// perfRead reads the group of thread tid (opening it on the thread's
// first span) into a snapshot.
func perfRead(tid int32) (perfSnap, bool) {
	var buf [1 + nPerf]uint64
	fd := perfGroup(tid)
	if fd < 0 {
		return perfSnap{}, false
	}
	n, _, errno := syscall.Syscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&buf[0])), unsafe.Sizeof(buf))
	if errno != 0 || n != unsafe.Sizeof(buf) || buf[0] != nPerf {
		return perfSnap{}, false
	}
	return perfSnap{int64(buf[1]), int64(buf[2]), int64(buf[3])}, true
}

// perfProbe opens the calling thread's group, once at Start, and says
// what the perf axes' status is: collected, or why not.
func perfProbe() (status, reason string) {
	tid := gettid()
	if perfGroup(tid) >= 0 {
		return statusCollected, ""
	}
	fd, errno := perfOpenGroup(tid) // again, for the error
	if errno == 0 {
		syscall.Close(int(fd))
		return statusProbeFailed, fmt.Sprintf("the table of per-thread counters is full (%d threads)", perfSlots)
	}
	why := fmt.Sprintf("perf_event_open of a software event failed: %v (errno %d)", errno, int(errno))
	switch errno {
	case syscall.EACCES, syscall.EPERM:
		return statusPermission, why + "; see /proc/sys/kernel/perf_event_paranoid"
	case syscall.ENOENT, syscall.EOPNOTSUPP, syscall.EINVAL:
		return statusNoEvent, why
	case syscall.ENOSYS:
		return statusUnsupported, why
	}
	return statusProbeFailed, why
}

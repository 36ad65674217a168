//go:build linux

package perf

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"golang.org/x/sys/unix"
)

const (
	paranoidPath = "/proc/sys/kernel/perf_event_paranoid"
	pmuDir       = "/sys/bus/event_source/devices"
)

// hardwarePMUs are the event-source names of a core PMU that serves the
// generic hardware events (hybrid x86 parts register cpu_core and cpu_atom).
var hardwarePMUs = []string{"cpu", "cpu_core", "cpu_atom"}

func errnoOf(err error) (unix.Errno, bool) {
	var e unix.Errno
	return e, errors.As(err, &e)
}

func isPermission(e unix.Errno) bool { return e == unix.EACCES || e == unix.EPERM }

// errnoName is the errno's symbol ("ENOENT"), or its text if it has none.
// EOPNOTSUPP shares ENOTSUP's number; perf_event_open(2) documents it.
func errnoName(e unix.Errno) string {
	if e == unix.EOPNOTSUPP {
		return "EOPNOTSUPP"
	}
	if n := unix.ErrnoName(e); n != "" {
		return n
	}
	return e.Error()
}

// classify turns a failed perf_event_open of attribute set a into a status
// and a reason.
func (op opener) classify(a attr, err error) outcome {
	errno, ok := errnoOf(err)
	if !ok {
		return outcome{axes.ProbeFailed, "perf_event_open: " + err.Error()}
	}
	if errno == unix.EINVAL {
		return op.reprobe(a)
	}
	return op.classifyErrno(a, errno)
}

// reprobe separates the two meanings of EINVAL: it opens the same event
// with only the permission-relevant attributes (no inherit, no group, no
// read format). If that opens, the combination was rejected; if not, its
// errno classifies the event itself.
func (op opener) reprobe(a attr) outcome {
	bare := attr{Type: a.Type, Config: a.Config, ExcludeKernel: a.ExcludeKernel, ExcludeHV: a.ExcludeHV}
	fd, err := op.sys.open(bare, -1)
	if err == nil {
		op.sys.close(fd)
		return outcome{axes.ProbeFailed, "the kernel rejected the attribute combination " +
			"(inherit/group/read format) for this event (EINVAL); the event alone opens"}
	}
	errno, ok := errnoOf(err)
	switch {
	case !ok:
		return outcome{axes.ProbeFailed, "perf_event_open re-probe after EINVAL: " + err.Error()}
	case errno == unix.EINVAL:
		return outcome{axes.UnsupportedEvent, "the kernel cannot map this generic event on this PMU " +
			"(EINVAL, also without inherit, group and read format)"}
	}
	o := op.classifyErrno(a, errno)
	o.reason = "EINVAL, and without inherit/group/read format: " + o.reason
	return o
}

// classifyErrno classifies every errno but EINVAL.
func (op opener) classifyErrno(a attr, errno unix.Errno) outcome {
	name := errnoName(errno)
	switch errno {
	case unix.ENOENT, unix.EOPNOTSUPP, unix.ENODEV:
		return outcome{axes.UnsupportedEvent, fmt.Sprintf("%s (%s)", op.noEventReason(a), name)}
	case unix.EACCES, unix.EPERM:
		return outcome{axes.PermissionDenied, op.permissionReason(a.ExcludeKernel, errno)}
	case unix.EMFILE:
		return outcome{axes.CounterResourcesUnavailable, "no file descriptor left for the counter (EMFILE)"}
	case unix.EBUSY:
		return outcome{axes.CounterResourcesUnavailable, "the PMU is held by another user, such as an exclusive or pinned event (EBUSY)"}
	case unix.ENOSPC:
		return outcome{axes.CounterResourcesUnavailable, "no PMU counter left to allocate (ENOSPC)"}
	case unix.ENOSYS:
		return outcome{axes.UnsupportedPlatform, "the kernel has no perf_event_open: built without CONFIG_PERF_EVENTS, or filtered (ENOSYS)"}
	}
	return outcome{axes.ProbeFailed, fmt.Sprintf("perf_event_open: %v (%s)", errno, name)}
}

// noEventReason says whether a missing event means there is no hardware
// PMU at all or that the PMU lacks this one event.
func (op opener) noEventReason(a attr) string {
	if a.Type != typeHardware {
		return "the kernel does not implement this software event"
	}
	for _, name := range hardwarePMUs {
		if op.sys.exists(pmuDir + "/" + name) {
			return "the PMU does not implement this event"
		}
	}
	return "no hardware PMU (no cpu entry under " + pmuDir + ")"
}

// permissionReason names perf_event_paranoid, its value and what would
// allow the event: user-space-only events need 2 or lower, events that
// count kernel-side work need 1 or lower.
func (op opener) permissionReason(excludeKernel bool, errno unix.Errno) string {
	need, what := 1, "kernel-side counting"
	if excludeKernel {
		need, what = 2, "user-space counting"
	}
	refused := fmt.Sprintf("perf_event_open refused (%s)", errnoName(errno))
	raw, err := op.sys.readFile(paranoidPath)
	if err != nil {
		return fmt.Sprintf("%s; %s could not be read (%v); %d or lower, or CAP_PERFMON, allows %s",
			refused, paranoidPath, err, need, what)
	}
	v, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		return fmt.Sprintf("%s; %s holds %q; %d or lower, or CAP_PERFMON, allows %s",
			refused, paranoidPath, strings.TrimSpace(string(raw)), need, what)
	}
	if v > need {
		return fmt.Sprintf("%s: perf_event_paranoid is %d (%s); set it to %d or lower, or grant CAP_PERFMON",
			refused, v, paranoidPath, need)
	}
	return fmt.Sprintf("%s although perf_event_paranoid is %d (%s), which allows %s; "+
		"a seccomp filter, LSM or container policy refuses it: lift that or grant CAP_PERFMON",
		refused, v, paranoidPath, what)
}

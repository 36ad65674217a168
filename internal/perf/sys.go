package perf

// syscalls is every kernel and filesystem access the package makes, so the
// classification and delta logic run on injected errno values and reads.
type syscalls interface {
	// open calls perf_event_open for the calling thread (pid 0, cpu -1)
	// with close-on-exec set; groupFd is -1 for a group leader.
	open(a attr, groupFd int) (int, error)
	// id returns the kernel's event id (PERF_EVENT_IOC_ID).
	id(fd int) (uint64, error)
	read(fd int, buf []byte) (int, error)
	close(fd int) error
	// exists reports whether a path exists.
	exists(path string) bool
	readFile(path string) ([]byte, error)
	// reschedule blocks the calling thread briefly so that the scheduler
	// switches it out and back in.
	reschedule()
}

// attr is the part of struct perf_event_attr this package sets.
type attr struct {
	Type          uint32
	Config        uint64
	ExcludeKernel bool
	ExcludeHV     bool
	Inherit       bool
	ReadFormat    uint64
}

package runner

import (
	"os"

	"golang.org/x/sys/unix"
)

// MemFile is an anonymous in-memory file (memfd) called name, shown as
// display in errors: a child writing to it never blocks, and nothing of it
// is left behind.
func MemFile(name, display string) (*os.File, error) {
	fd, err := unix.MemfdCreate(name, unix.MFD_CLOEXEC)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), display), nil
}

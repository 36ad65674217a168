package pagecache

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Drop writes the file at path back (a file just written has dirty pages the
// kernel will not drop) and asks the kernel to drop its cached pages, and
// counts them before and after.
func Drop(path string) Result {
	r := Result{Path: path, Before: -1, After: -1}
	f, err := os.Open(path)
	if err != nil {
		r.Err = err
		return r
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		r.Err = err
		return r
	}
	if !st.Mode().IsRegular() {
		r.Err = fmt.Errorf("%s: not a regular file", path)
		return r
	}
	r.Pages = pages(st.Size())
	r.Before = Resident(f, st.Size())
	fd := int(f.Fd())
	if err := unix.Fdatasync(fd); err != nil {
		r.Err = fmt.Errorf("write back %s: %w", path, err)
		return r
	}
	if err := unix.Fadvise(fd, 0, 0, unix.FADV_DONTNEED); err != nil {
		r.Err = fmt.Errorf("drop %s from the page cache: %w", path, err)
		return r
	}
	r.After = Resident(f, st.Size())
	return r
}

// Resident counts the pages of f (size bytes long) that the page cache
// holds, through mincore on a read-only mapping that touches none of them;
// -1 when they cannot be counted.
func Resident(f *os.File, size int64) int {
	if size == 0 {
		return 0
	}
	m, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return -1
	}
	defer unix.Munmap(m)
	vec := make([]byte, pages(size))
	_, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0])))
	if errno != 0 {
		return -1
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}

// Ballast allocates and touches n anonymous pages and returns the function
// that frees them; with n <= 0, or when the mapping fails, it holds
// nothing and the function does nothing.
func Ballast(n int) func() {
	if n <= 0 {
		return func() {}
	}
	m, err := unix.Mmap(-1, 0, n*PageSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return func() {}
	}
	for i := 0; i < len(m); i += PageSize {
		m[i] = 1
	}
	return func() { _ = unix.Munmap(m) }
}

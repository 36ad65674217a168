package claim

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/flybench/flybench/internal/field"
)

// PathError says why the claim path cannot be used, in one line that names
// the path and what to do.
type PathError struct {
	Path   string
	reason *field.Error
}

func (e *PathError) Error() string { return fmt.Sprintf("claim path %q: %s", e.Path, e.reason) }

// Named returns a copy of e whose message spells the fields it names
// (FieldPath) with names.
func (e *PathError) Named(names field.Names) *PathError {
	return &PathError{Path: e.Path, reason: e.reason.Named(names)}
}

// The fields of a Request its messages name: the claim directory, the
// timeout and the poll interval.
const (
	FieldPath    = "claim.Dir"
	FieldTimeout = "claim.Timeout"
	FieldPoll    = "claim.Poll"
	FieldCPUs    = "claim.CPUs" // named by fb-pair's duet, which a per-CPU claim serves
)

// pathField stands for the claim directory's field in a reason.
var pathField = field.Name(FieldPath)

func pathErrorf(path, format string, args ...any) *PathError {
	return &PathError{Path: path, reason: field.Errorf(FieldPath, path, format, args...)}
}

// named is err spelled with names when it is a PathError.
func named(err error, names field.Names) error {
	if pe, ok := err.(*PathError); ok {
		return pe.Named(names)
	}
	return err
}

// ErrNoDir is returned by openDir without create when the directory is absent.
var ErrNoDir = errors.New("claim directory does not exist")

// dir is an open claim directory. Every claim file is opened relative to
// it, so no path component after it is ever resolved twice.
type dir struct {
	path string
	fd   int
}

// openDir opens the claim directory without following a symbolic link at
// its last component. With create it makes an absent directory, mode 01777
// whatever the umask.
func openDir(path string, create bool) (*dir, error) {
	var st unix.Stat_t
	err := unix.Lstat(path, &st)
	created := false
	if errors.Is(err, unix.ENOENT) {
		if !create {
			return nil, ErrNoDir
		}
		if err = unix.Mkdir(path, 0o1777); err == nil || errors.Is(err, unix.EEXIST) {
			created = err == nil
			err = unix.Lstat(path, &st)
		}
	}
	if err != nil {
		return nil, pathErrorf(path, "cannot use the claim directory: %v; create it with mode 1777 or choose another with %s", errnoText(err), pathField)
	}
	if err := checkDirMode(path, st); err != nil {
		return nil, err
	}
	if err := checkDirOwner(path, st.Uid, uint32(os.Geteuid())); err != nil {
		return nil, err
	}
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, pathErrorf(path, "cannot open the claim directory: %v", errnoText(err))
	}
	d := &dir{path: path, fd: fd}
	var opened unix.Stat_t
	if err := unix.Fstat(fd, &opened); err != nil || opened.Dev != st.Dev || opened.Ino != st.Ino {
		d.close()
		return nil, pathErrorf(path, "the directory was replaced while it was opened; try again, and find out who is renaming it")
	}
	if created && int(opened.Uid) == os.Geteuid() {
		if err := unix.Fchmod(fd, 0o1777); err != nil {
			d.close()
			return nil, pathErrorf(path, "cannot make the new claim directory mode 1777: %v", errnoText(err))
		}
	}
	return d, nil
}

// checkDirMode refuses anything but a real directory, and a world-writable
// directory without the sticky bit, where anyone could delete or replace a
// held claim file.
func checkDirMode(path string, st unix.Stat_t) error {
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
	case unix.S_IFLNK:
		return pathErrorf(path, "is a symbolic link, not a directory; remove it (in a world-writable place anyone can plant one) or choose another directory with %s", pathField)
	default:
		return pathErrorf(path, "is not a directory; remove it or choose another directory with %s", pathField)
	}
	if st.Mode&0o002 != 0 && st.Mode&unix.S_ISVTX == 0 {
		return pathErrorf(path, "is world-writable without the sticky bit, so anyone could delete a held claim file; chmod 1777 it")
	}
	return nil
}

// checkDirOwner refuses a directory owned by a user who is neither root
// nor the caller: a directory's owner may delete any file in it, sticky
// bit or not, and a held claim file deleted and created again is a second
// exclusive claim. owner is what lstat saw; openDir then makes sure the
// directory it opened is that one.
func checkDirOwner(path string, owner, me uint32) error {
	if owner == 0 || owner == me {
		return nil
	}
	return pathErrorf(path, "is owned by uid %d, neither root nor you: its owner can delete a held claim file and let a second holder in; "+
		"have root make it (install -d -m 1777 -o root %s) or choose another directory with %s", owner, path, pathField)
}

func (d *dir) close() {
	if d.fd >= 0 {
		unix.Close(d.fd)
		d.fd = -1
	}
}

// file is one open claim file.
type file struct {
	name     string
	fd       int
	dev, ino uint64
	// writable: opened read-write and the only name of its inode, so the
	// content may be replaced.
	writable bool
}

func (d *dir) pathOf(name string) string { return filepath.Join(d.path, name) }

// open opens (creating if absent) one claim file for locking: never through
// a symbolic link, never anything but a regular file. An existing file is
// opened read-write, or read-only when this user may not write it (flock
// works on either); only an absent file is created, mode 0666, with
// O_EXCL, which fs.protected_regular never refuses.
func (d *dir) open(name string) (file, error) {
	path := d.pathOf(name)
	const flags = unix.O_NOFOLLOW | unix.O_CLOEXEC | unix.O_NONBLOCK | unix.O_NOCTTY
	for range 3 {
		if err := d.checkEntry(name); err != nil && !errors.Is(err, unix.ENOENT) {
			return file{}, err
		}
		fd, err := unix.Openat(d.fd, name, flags|unix.O_RDWR, 0)
		writable := err == nil
		if errors.Is(err, unix.EACCES) || errors.Is(err, unix.EROFS) || errors.Is(err, unix.EPERM) {
			fd, err = unix.Openat(d.fd, name, flags|unix.O_RDONLY, 0)
		}
		if errors.Is(err, unix.ENOENT) {
			fd, err = unix.Openat(d.fd, name, flags|unix.O_RDWR|unix.O_CREAT|unix.O_EXCL, 0o666)
			if errors.Is(err, unix.EEXIST) {
				continue // someone created it meanwhile: open theirs
			}
			if err == nil {
				writable = true
				if err := unix.Fchmod(fd, 0o666); err != nil {
					unix.Close(fd)
					return file{}, pathErrorf(path, "cannot make the new claim file mode 0666: %v", errnoText(err))
				}
			}
		}
		if err != nil {
			return file{}, d.openError(name, err)
		}
		return d.checkOpened(name, fd, writable)
	}
	return file{}, pathErrorf(path, "the claim file keeps appearing and disappearing; find out who is deleting it")
}

// checkEntry refuses a name that is not a regular file before opening it,
// so a planted FIFO or device is never opened read-write.
func (d *dir) checkEntry(name string) error {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		if errors.Is(err, unix.ENOENT) {
			return err
		}
		return d.openError(name, err)
	}
	return fileModeError(d.pathOf(name), uint32(st.Mode))
}

func fileModeError(path string, mode uint32) error {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return nil
	case unix.S_IFLNK:
		return pathErrorf(path, "is a symbolic link; claim files are never opened through one: remove it (anyone can plant one in a world-writable directory)")
	default:
		return pathErrorf(path, "is not a regular file; remove it")
	}
}

// checkOpened verifies what was opened: a regular file. A file with more
// than one name (a hard link someone planted) is locked but never written.
func (d *dir) checkOpened(name string, fd int, writable bool) (file, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return file{}, pathErrorf(d.pathOf(name), "fstat: %v", errnoText(err))
	}
	if err := fileModeError(d.pathOf(name), uint32(st.Mode)); err != nil {
		unix.Close(fd)
		return file{}, err
	}
	if fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0); err == nil {
		unix.FcntlInt(uintptr(fd), unix.F_SETFL, fl&^unix.O_NONBLOCK)
	}
	return file{name: name, fd: fd, dev: uint64(st.Dev), ino: st.Ino, writable: writable && st.Nlink == 1}, nil
}

// openError turns an open failure into a PathError that says what to do.
func (d *dir) openError(name string, err error) error {
	path := d.pathOf(name)
	switch {
	case errors.Is(err, unix.ELOOP):
		return fileModeError(path, unix.S_IFLNK)
	case errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM):
		var st unix.Stat_t
		if unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
			return pathErrorf(path, "permission denied (owner uid %d, mode %04o); its owner or root must remove it or chmod 0666 it", st.Uid, st.Mode&0o7777)
		}
		return pathErrorf(path, "permission denied creating it; make the directory mode 1777 or choose another with %s", pathField)
	}
	return pathErrorf(path, "cannot open: %v", errnoText(err))
}

// same reports whether name still names f's inode: a claim file deleted
// and recreated between open and flock would otherwise be a lock nobody
// else sees.
func (d *dir) same(f file) bool {
	var st unix.Stat_t
	return unix.Fstatat(d.fd, f.name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && uint64(st.Dev) == f.dev && st.Ino == f.ino
}

// realPath is where the directory actually is, for the mount lookup.
func (d *dir) realPath() string {
	if p, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(d.fd)); err == nil && filepath.IsAbs(p) {
		return p
	}
	return d.path
}

// errnoText is an error's text without Go's wrapping.
func errnoText(err error) string {
	var errno unix.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	return err.Error()
}

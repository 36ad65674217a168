package claim

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Mount is one line of /proc/self/mountinfo.
type Mount struct {
	ID, Parent int
	// Root is the directory of the mounted file system that appears at
	// Point: "/" for a whole file system, a subdirectory for a bind mount.
	Root   string
	Point  string
	FSType string
	Source string
	// SuperOptions are the per-superblock options (btrfs's subvol=...).
	SuperOptions string
}

// ParseMountinfo reads the mountinfo format of proc(5):
//
//	36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
//
// Lines it cannot read are skipped.
func ParseMountinfo(r io.Reader) ([]Mount, error) {
	var mounts []Mount
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		if m, ok := parseMountLine(sc.Text()); ok {
			mounts = append(mounts, m)
		}
	}
	return mounts, sc.Err()
}

func parseMountLine(line string) (Mount, bool) {
	head, tail, ok := strings.Cut(line, " - ")
	f, t := strings.Fields(head), strings.Fields(tail)
	if !ok || len(f) < 6 || len(t) < 2 {
		return Mount{}, false
	}
	id, err1 := strconv.Atoi(f[0])
	parent, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil {
		return Mount{}, false
	}
	m := Mount{ID: id, Parent: parent, Root: unescapeOctal(f[3]), Point: unescapeOctal(f[4]),
		FSType: t[0], Source: unescapeOctal(t[1])}
	if len(t) > 2 {
		m.SuperOptions = t[2]
	}
	return m, true
}

// unescapeOctal undoes the kernel's \ooo escapes of space, tab, newline
// and backslash in mountinfo paths.
func unescapeOctal(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) && isOctal(s[i+1:i+4]) {
			n, _ := strconv.ParseUint(s[i+1:i+4], 8, 8)
			b.WriteByte(byte(n))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(s string) bool {
	return len(s) == 3 && strings.Trim(s, "01234567") == "" && s[0] <= '3'
}

// MountOf returns the mount that holds path: the one with the longest
// mount point that is path or a parent of it; of equal mount points the
// last listed, which is the one on top.
func MountOf(mounts []Mount, path string) (Mount, bool) {
	best, found := Mount{}, false
	for _, m := range mounts {
		if !under(path, m.Point) {
			continue
		}
		if !found || len(m.Point) >= len(best.Point) {
			best, found = m, true
		}
	}
	return best, found
}

// under reports whether path is point or inside it.
func under(path, point string) bool {
	if point == "/" || path == point {
		return true
	}
	return strings.HasPrefix(path, point) && path[len(point)] == '/'
}

// PrivateMount reports whether dir is in a mount that shows only a
// subdirectory of its file system, the way systemd PrivateTmp= bind-mounts
// /tmp/systemd-private-*/tmp over /tmp: processes outside that view use
// other files, so a claim there excludes only the processes sharing it.
// A btrfs subvolume mounted as itself is not such a view. The reason says
// which mount and what it means.
func PrivateMount(mounts []Mount, dir string) (bool, string) {
	m, ok := MountOf(mounts, dir)
	if !ok || m.Root == "/" || isSubvolume(m) {
		return false, ""
	}
	what := "a bind mount"
	if strings.Contains(m.Root, "systemd-private-") {
		what = "a private /tmp (systemd PrivateTmp=)"
	}
	return true, fmt.Sprintf("%q is in %s: %q of %s %s is mounted on %s, so the claim excludes only processes that share this mount namespace",
		dir, what, m.Root, m.FSType, m.Source, m.Point)
}

// isSubvolume: btrfs shows a subvolume mount's subvolume path as its root.
func isSubvolume(m Mount) bool {
	if m.FSType != "btrfs" {
		return false
	}
	for opt := range strings.SplitSeq(m.SuperOptions, ",") {
		if v, ok := strings.CutPrefix(opt, "subvol="); ok && v == m.Root {
			return true
		}
	}
	return false
}

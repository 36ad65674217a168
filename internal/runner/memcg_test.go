package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFindCgroups picks the parent of the commands' cgroups from a
// mountinfo file, a /proc/PID/cgroup file and the controllers files of a
// fake hierarchy: v2 where this process's cgroup gives its children the
// memory controller, v2 siblings where only the cgroup itself has it, v1
// otherwise (this project's VMs: v2 holds only hugetlb), and the reasons
// when nothing can be used.
func TestFindCgroups(t *testing.T) {
	const (
		v2Mount = "30 25 0:26 / %s/unified rw,nosuid - cgroup2 cgroup2 rw\n"
		v1Mount = "31 25 0:27 / %s/memory rw,nosuid - cgroup cgroup rw,memory\n"
		cpuV1   = "32 25 0:28 / %s/cpu rw,nosuid - cgroup cgroup rw,cpu\n"
	)
	cases := []struct {
		name              string
		mounts            []string
		procCgroup        string
		subtree, controls string // of the v2 cgroup /a/b
		version           int
		parent, err       string
	}{
		{"v2 children", []string{v2Mount}, "0::/a/b\n", "cpu memory", "cpu memory", 2, "unified/a/b", ""},
		{"v2 siblings", []string{v2Mount}, "0::/a/b\n", "", "memory pids", 2, "unified/a", ""},
		{"v1 under a v2 without memory", []string{v2Mount, cpuV1, v1Mount}, "4:memory:/x/y\n1:cpu:/\n0::/a/b\n", "", "hugetlb", 1, "memory/x/y", ""},
		{"nothing", []string{cpuV1}, "1:cpu:/\n", "", "", 0, "", "no cgroup v2 hierarchy is mounted; no cgroup v1 memory hierarchy is mounted"},
		{"v2 without memory", []string{v2Mount}, "0::/a/b\n", "", "hugetlb", 0, "", "has no memory controller for"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			own := filepath.Join(root, "unified/a/b")
			must(t, os.MkdirAll(own, 0o755))
			must(t, os.WriteFile(filepath.Join(own, "cgroup.subtree_control"), []byte(c.subtree+"\n"), 0o644))
			must(t, os.WriteFile(filepath.Join(own, "cgroup.controllers"), []byte(c.controls+"\n"), 0o644))
			var mountinfo strings.Builder
			for _, m := range c.mounts {
				mountinfo.WriteString(strings.ReplaceAll(m, "%s", root))
			}
			mi, pc := filepath.Join(root, "mountinfo"), filepath.Join(root, "cgroup")
			must(t, os.WriteFile(mi, []byte(mountinfo.String()), 0o644))
			must(t, os.WriteFile(pc, []byte(c.procCgroup), 0o644))
			got := FindCgroups(mi, pc)
			if c.err != "" {
				if got.Err == nil || !strings.Contains(got.Err.Error(), c.err) {
					t.Fatalf("FindCgroups = %+v, want an error containing %q", got, c.err)
				}
				return
			}
			if got.Err != nil || got.Version != c.version || got.Parent != filepath.Join(root, c.parent) {
				t.Fatalf("FindCgroups = %+v, want v%d under %s", got, c.version, c.parent)
			}
			if c.version == 1 && got.Home != got.Parent {
				t.Errorf("Home %q, want this process's cgroup %q", got.Home, got.Parent)
			}
		})
	}
}

// TestCgroupMountRoot: a hierarchy mounted from below its root (a cgroup
// namespace, a container) names this process's cgroup from that root.
func TestCgroupMountRoot(t *testing.T) {
	m := cgroupMount{point: "/sys/fs/cgroup/memory", root: "/docker/abc"}
	if got := m.dir("/docker/abc/job"); got != "/sys/fs/cgroup/memory/job" {
		t.Errorf("dir = %q", got)
	}
	if got := (cgroupMount{point: "/sys/fs/cgroup", root: "/"}).dir("/a"); got != "/sys/fs/cgroup/a" {
		t.Errorf("dir = %q", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

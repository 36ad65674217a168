package claim

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestParseCPUList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
		err  bool
	}{
		{"", nil, false},
		{"3", []int{3}, false},
		{"2,3", []int{2, 3}, false},
		{"0-3", []int{0, 1, 2, 3}, false},
		{"5,0-1,1", []int{0, 1, 5}, false},
		{" 0-1 , 4\n", []int{0, 1, 4}, false},
		{"3-1", nil, true},
		{"-1", nil, true},
		{"a", nil, true},
		{"1,,2", nil, true},
		{"0-4000000000", nil, true},
	} {
		got, err := ParseCPUList(tc.in)
		if (err != nil) != tc.err || !slices.Equal(got, tc.want) {
			t.Errorf("ParseCPUList(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestOnlineCPUs(t *testing.T) {
	root := fstest.MapFS{"sys/devices/system/cpu/online": {Data: []byte("0-2,4\n")}}
	online, err := OnlineCPUs(root)
	if err != nil || !slices.Equal(online, []int{0, 1, 2, 4}) {
		t.Fatalf("OnlineCPUs = %v, %v", online, err)
	}
	if err := CheckCPUs([]int{1, 4}, online); err != nil {
		t.Errorf("CheckCPUs: %v", err)
	}
	if err := CheckCPUs([]int{3}, online); err == nil || !strings.Contains(err.Error(), "CPU 3 is not online (online: 0,1,2,4)") {
		t.Errorf("CheckCPUs(3) = %v", err)
	}
}

// Mountinfo fixtures: a plain host, a systemd PrivateTmp service, a btrfs
// root, a container, and a path with escaped spaces.
const (
	hostMounts = `21 26 0:20 / /proc rw,relatime - proc proc rw
26 1 254:0 / / rw,relatime - ext4 /dev/vda rw
60 26 0:40 / /tmp rw,nosuid,nodev shared:20 - tmpfs tmpfs rw,size=8G
`
	privateTmpMounts = `26 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
60 26 0:40 / /tmp rw,nosuid,nodev shared:20 - tmpfs tmpfs rw
812 60 0:40 /systemd-private-6c0a1e2b9f6f4f83a1d1-postgresql.service-Xq2Xo1/tmp /tmp rw,nosuid,nodev shared:400 master:20 - tmpfs tmpfs rw
813 812 0:40 /systemd-private-6c0a1e2b9f6f4f83a1d1-postgresql.service-Xq2Xo1/tmp/x /tmp/x rw - tmpfs tmpfs rw
`
	privateTmpOnRootMounts = `26 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
900 26 254:0 /tmp/systemd-private-abc-nginx.service-Yy/tmp /tmp rw,relatime shared:450 master:1 - ext4 /dev/vda rw
`
	btrfsMounts = `29 1 0:26 /@ / rw,relatime shared:1 - btrfs /dev/nvme0n1p2 rw,ssd,space_cache=v2,subvolid=256,subvol=/@
30 29 0:26 /@home /home rw,relatime shared:2 - btrfs /dev/nvme0n1p2 rw,subvolid=257,subvol=/@home
`
	containerMounts = `500 400 0:52 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A,upperdir=/var/lib/docker/overlay2/x/diff
501 500 0:53 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw
510 500 254:1 /var/lib/docker/volumes/claims/_data /tmp/host-cpu-claim rw,relatime - ext4 /dev/vdb rw
`
	escapedMounts = `26 1 254:0 / / rw - ext4 /dev/vda rw
70 26 254:0 /srv/shared\040dir /mnt/my\040claims rw - ext4 /dev/vda rw
`
)

func TestPrivateMount(t *testing.T) {
	for _, tc := range []struct {
		name, mounts, dir string
		private           bool
		reason            string
	}{
		{"host tmpfs", hostMounts, "/tmp/host-cpu-claim", false, ""},
		{"host root", hostMounts, "/var/claims", false, ""},
		{"PrivateTmp", privateTmpMounts, "/tmp/host-cpu-claim", true, "systemd PrivateTmp="},
		{"PrivateTmp nested mount", privateTmpMounts, "/tmp/x/claim", true, "systemd PrivateTmp="},
		{"PrivateTmp prefix is not a parent", privateTmpMounts, "/tmpfoo/claim", false, ""},
		{"PrivateTmp on the root fs", privateTmpOnRootMounts, "/tmp/host-cpu-claim", true, "/tmp/systemd-private-abc-nginx.service-Yy/tmp"},
		{"btrfs subvolume", btrfsMounts, "/tmp/host-cpu-claim", false, ""},
		{"btrfs home", btrfsMounts, "/home/u/claims", false, ""},
		{"container volume", containerMounts, "/tmp/host-cpu-claim", true, "bind mount"},
		{"container overlay", containerMounts, "/var/tmp/claims", false, ""},
		{"escaped", escapedMounts, "/mnt/my claims/c", true, `"/srv/shared dir"`},
	} {
		mounts, err := ParseMountinfo(strings.NewReader(tc.mounts))
		if err != nil {
			t.Fatal(err)
		}
		private, reason := PrivateMount(mounts, tc.dir)
		if private != tc.private || !strings.Contains(reason, tc.reason) {
			t.Errorf("%s: PrivateMount(%q) = %v, %q; want %v with %q", tc.name, tc.dir, private, reason, tc.private, tc.reason)
		}
	}
}

func TestParseMountinfoSkipsGarbage(t *testing.T) {
	mounts, err := ParseMountinfo(strings.NewReader("garbage\n1 2 3\nx y 0:1 / / rw - ext4 /dev/a rw\n" + hostMounts))
	if err != nil || len(mounts) != 3 {
		t.Fatalf("ParseMountinfo = %d mounts, %v; want the 3 good lines", len(mounts), err)
	}
	if m := mounts[2]; m.ID != 60 || m.Parent != 26 || m.Point != "/tmp" || m.FSType != "tmpfs" || m.Root != "/" {
		t.Errorf("mount = %+v", m)
	}
}

func TestParseLocks(t *testing.T) {
	const locks = `1: FLOCK  ADVISORY  WRITE 26391 fe:00:9978447 0 EOF
1: -> FLOCK  ADVISORY  WRITE 26400 fe:00:9978447 0 EOF
2: FLOCK  ADVISORY  READ 1546 103:02:12 0 EOF
3: OFDLCK ADVISORY  READ -1 00:05:1234 0 EOF
4: POSIX  ADVISORY  WRITE 612 00:19:77 0 EOF
5: LEASE  ACTIVE    READ 9 08:01:5 0 EOF
 6: -> FLOCK  ADVISORY  READ 77 fe:00:9978447 0 EOF
not a lock line
7: FLOCK ADVISORY WRITE x fe:00:1 0 EOF
`
	entries, err := ParseLocks(strings.NewReader(locks))
	if err != nil || len(entries) != 7 {
		t.Fatalf("ParseLocks = %d entries, %v; want 7", len(entries), err)
	}
	want := LockEntry{Kind: "FLOCK", Write: true, PID: 26391, Major: 0xfe, Minor: 0, Inode: 9978447}
	if entries[0] != want {
		t.Errorf("entry 0 = %+v, want %+v", entries[0], want)
	}
	if !entries[1].Waiting || entries[1].PID != 26400 {
		t.Errorf("entry 1 = %+v, want a waiter", entries[1])
	}
	if e := entries[2]; e.Write || e.Major != 0x103 || e.Minor != 2 || e.Inode != 12 {
		t.Errorf("entry 2 = %+v", e)
	}
	if e := entries[6]; !e.Waiting || e.Write || e.PID != 77 {
		t.Errorf("entry 6 = %+v", e)
	}
	holders, waiters := lockersOf(entries, 0xfe00, 9978447) // makedev(0xfe, 0)
	if len(holders) != 1 || holders[0] != (Holder{PID: 26391, Mode: "exclusive"}) || len(waiters) != 2 {
		t.Errorf("lockersOf = %v, %v", holders, waiters)
	}
}

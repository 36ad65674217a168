package claim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A claim directory owned by another user who is not root is refused
// (flybench issue 21, item 9): its owner may delete any claim file in it,
// sticky bit or not, and a deleted held file lets a second exclusive
// holder in.
func TestForeignOwnedDirRefused(t *testing.T) {
	for _, tc := range []struct {
		owner, me uint32
		ok        bool
	}{{0, 0, true}, {0, 1000, true}, {1000, 1000, true}, {65534, 0, false}, {65534, 1000, false}} {
		err := checkDirOwner("/d", tc.owner, tc.me)
		if (err == nil) != tc.ok {
			t.Errorf("owner %d, caller %d: %v", tc.owner, tc.me, err)
		}
		if err != nil && !strings.Contains(err.Error(), `claim path "/d": is owned by uid 65534, neither root nor you`) {
			t.Errorf("message %q", err)
		}
	}
}

// The case of the issue, on the real file system (as root): nobody makes
// the directory, mode 1777; root's claim in it is refused, not held.
func TestForeignOwnedDirOnDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a directory to another user")
	}
	dir := filepath.Join(t.TempDir(), "claim")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, os.ModeSticky|0o777)
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	res := testHost(newClock()).Acquire(Request{Dir: dir, Timeout: time.Second})
	if res.Claim != nil {
		res.Claim.Release()
	}
	if res.Outcome != PathUnusable || !strings.Contains(res.Reason, "is owned by uid 65534, neither root nor you") {
		t.Fatalf("%s: %s", res.Outcome, res.Reason)
	}
}

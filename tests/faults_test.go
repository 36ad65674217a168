package tests

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/cli"
)

// TestLockRefusesForeignOwnedDir is flybench issue 21, item 9: nobody
// made the claim directory (mode 1777), so nobody could delete root's held
// claim file and let a second exclusive holder in. fb-lock refuses such a
// directory: --require-machine-scope exits 11 without running PROGRAM.
func TestLockRefusesForeignOwnedDir(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the directory to another user")
	}
	dir := filepath.Join(t.TempDir(), "claims")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, os.ModeSticky|0o777)
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	cmd := exec.Command(tool("fb-lock"), "--path", dir, "--timeout", "0", "--require-machine-scope", "touch", marker)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var xe *exec.ExitError
	if !errors.As(err, &xe) || xe.ExitCode() != cli.ExitLockRefused {
		t.Fatalf("exit %v, want %d; stderr %s", err, cli.ExitLockRefused, stderr.String())
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("PROGRAM ran")
	}
	if !strings.Contains(stderr.String(), "(path_unusable): claim path \""+dir+"\": is owned by uid 65534, neither root nor you") {
		t.Errorf("stderr %q", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "machine")); err == nil {
		t.Error("a claim file was made in the refused directory")
	}
}

package record

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/pkg/probes"
)

// leaveStaleSocket leaves a socket file nobody listens on, as a fb-record
// killed with SIGKILL does.
func leaveStaleSocket(t *testing.T, path string) {
	t.Helper()
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	if _, err := os.Lstat(path); err != nil {
		t.Fatal(err)
	}
}

// After kill -9 a recording on the same --socket starts: the stale socket
// is found (nobody listening) and replaced, with a warning.
func TestStaleSocketReplaced(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.sock")
	leaveStaleSocket(t, path)
	if err := CheckSocket(path); err != nil {
		t.Fatalf("CheckSocket of a stale socket: %v", err)
	}
	var w warnings
	srv, err := ListenSocket(New(keepAll, probes.Monotonic{}), path, w.add)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close(0)
	if got := w.all(); len(got) != 1 || !strings.Contains(got[0], "replaced the stale socket") {
		t.Fatalf("warnings %q", got)
	}
}

// A socket someone listens on, or a file that is not a socket, is never
// replaced.
func TestLiveSocketOrFileRefused(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "live.sock")
	srv, err := ListenSocket(New(keepAll, probes.Monotonic{}), live, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close(0)
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o600)
	for _, p := range []string{live, file} {
		var ee *EndpointError
		if err := CheckSocket(p); !errors.As(err, &ee) {
			t.Errorf("CheckSocket(%s) = %v, want an *EndpointError", p, err)
		}
		_, err := ListenSocket(New(keepAll, probes.Monotonic{}), p, func(string) {})
		if !errors.As(err, &ee) {
			t.Errorf("ListenSocket(%s) = %v, want an *EndpointError", p, err)
		}
	}
	if err := CheckSocket(filepath.Join(dir, "absent")); err != nil {
		t.Errorf("an absent path: %v", err)
	}
	c := dial(t, live)
	c.SetDeadline(time.Now().Add(time.Second))
	c.Close()
}

package record

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/flybench/flybench/internal/field"
)

// EndpointError is a --socket path fb-record must not take over: a file
// that is not a socket, or a socket another process listens on.
type EndpointError struct {
	Path   string
	Reason string
}

func (e *EndpointError) Error() string { return fmt.Sprintf("socket %q %s", e.Path, e.Reason) }

// CheckSocket says whether fb-record may listen at path: nil when nothing
// is there or a stale socket (a socket file nobody listens on, which a
// fb-record killed with SIGKILL leaves) that ListenSocket will replace;
// an *EndpointError for a file that is not a socket or a socket in use.
func CheckSocket(path string) error {
	_, err := staleSocket(path)
	return err
}

// staleSocket reports whether path is a socket nobody listens on; an
// absent path is not stale and no error.
func staleSocket(path string) (bool, error) {
	st, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, &EndpointError{Path: path, Reason: fmt.Sprintf("cannot be examined: %v", err)}
	}
	if st.Mode().Type() != os.ModeSocket {
		return false, &EndpointError{Path: path, Reason: "exists and is not a socket"}
	}
	c, err := net.DialTimeout("unix", path, time.Second)
	if err == nil {
		c.Close()
		return false, &EndpointError{Path: path, Reason: "is in use: another process listens on it"}
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return true, nil
	}
	return false, &EndpointError{Path: path, Reason: fmt.Sprintf("exists and cannot be tried: %v", err)}
}

// listenUnix listens at path, replacing a stale socket there.
func listenUnix(path string, warn func(string)) (*net.UnixListener, error) {
	stale, err := staleSocket(path)
	if err != nil {
		return nil, err
	}
	if stale {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, &EndpointError{Path: path, Reason: fmt.Sprintf("is a stale socket that cannot be removed: %v", err)}
		}
		warn(fmt.Sprintf("replaced the stale socket %q: nobody was listening on it (a recording killed before it could remove it)", path))
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen on %q: %w", path, err)
	}
	return ln, nil
}

// Check refuses options a session cannot start with, before anything
// listens: the policy's, both endpoints at once, a refresh under 10 ms, a
// negative duration, a socket path that is taken or too long, a FIFO that
// exists. Each is a *field.Error.
func (opt Options) Check() error {
	if err := opt.Policy.Check(); err != nil {
		return err
	}
	sock, fifo := field.Name(FieldSocket), field.Name(FieldFIFO)
	switch {
	case opt.Socket != "" && opt.FIFO != "":
		return field.Errorf(FieldSocket, opt.Socket, "%s and %s exclude each other: fb-record listens on one", sock, fifo)
	case opt.Refresh < 10*time.Millisecond:
		return field.Errorf(FieldRefresh, opt.Refresh, "%s %v: at least 10ms", field.Name(FieldRefresh), opt.Refresh)
	case opt.Duration < 0:
		return field.Errorf(FieldDuration, opt.Duration, "%s %v is negative", field.Name(FieldDuration), opt.Duration)
	}
	if opt.Socket != "" {
		var ee *EndpointError
		if err := CheckSocket(opt.Socket); errors.As(err, &ee) {
			return field.Errorf(FieldSocket, opt.Socket, "%s %q %s", sock, ee.Path, ee.Reason).WithHint("remove it or choose another path")
		} else if err != nil {
			return err
		}
	}
	if _, err := os.Lstat(opt.FIFO); opt.FIFO != "" && err == nil {
		return field.Errorf(FieldFIFO, opt.FIFO, "%s %q exists", fifo, opt.FIFO).WithHint("remove it or choose another path")
	}
	if len(opt.Socket) > 100 {
		return field.Errorf(FieldSocket, opt.Socket, "%s %q is longer than 100 bytes, too long for a Unix socket address", sock, opt.Socket)
	}
	return nil
}

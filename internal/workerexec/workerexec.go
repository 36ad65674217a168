// Package workerexec is the harness side of the flybench worker protocol
// (man fb-worker(7)): it starts a long-lived worker process, reads its
// handshake, asks it to run N iterations of a case, and stops it.
//
// The worker is the leader of its own process group, as every child of the
// harness is (see package runner), so a terminal's SIGINT reaches only the
// harness, and Kill takes the worker's own children with it. Its stdin and
// stdout are pipes; its stderr goes to a memfd capture whose tail (the last
// TailBytes) is quoted in error messages, or to a shown file when asked.
//
// Reads and writes use the pipes' deadlines rather than goroutines: a
// request that is not answered within the request timeout ends in a
// *TimeoutError, and Kill, from any goroutine, signals the process group
// and moves the deadlines into the past so that a blocked Run returns at
// once. Nothing here starts a goroutine, so nothing is left behind.
//
// Any failure of a request (a timeout, the worker's death, an error line,
// an answer out of protocol) kills the worker's process group and reaps
// the worker before Run returns; later Runs return the same error.
package workerexec

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"slices"
	"syscall"
	"time"

	"github.com/flybench/flybench/internal/platform"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/internal/wproto"
	"golang.org/x/sys/unix"
)

// Defaults for a zero Options timeout, and the wait after quit.
const (
	DefaultStartTimeout   = 10 * time.Second
	DefaultRequestTimeout = 60 * time.Second
	QuitTimeout           = 2 * time.Second
)

// ErrKilled is returned, wrapped with the case and request, by a Run that
// Kill interrupted, and by every Run after it.
var ErrKilled = errors.New("worker killed")

// Options describe a worker to start.
type Options struct {
	// Argv is the program and its arguments; Argv[0] is looked up in $PATH
	// when it has no slash, and is resolved against Dir when relative.
	Argv []string
	// Env is the worker's environment; nil is the harness's own.
	Env []string
	// Dir is the worker's working directory; "" is the harness's own.
	Dir string
	// StartTimeout bounds the handshake, RequestTimeout each request; zero
	// means DefaultStartTimeout and DefaultRequestTimeout.
	StartTimeout, RequestTimeout time.Duration
	// ShowStderr sends the worker's stderr to Stderr (nil: os.Stderr)
	// instead of capturing its tail for error messages.
	ShowStderr bool
	Stderr     *os.File
}

// Worker is a running worker. Call Run and Close from one goroutine at a
// time; Kill may be called from any goroutine at any time.
type Worker struct {
	argv    []string
	hs      wproto.Handshake
	timeout time.Duration

	stdin   *os.File // write end of the worker's stdin
	stdout  *os.File // read end of the worker's stdout
	br      *bufio.Reader
	capture *os.File // stderr capture (a memfd); nil when stderr is shown
	wbuf    []byte

	guard runner.Guard

	lastPID int
	reaped  bool
	status  syscall.WaitStatus
	err     error // the failure that stopped the worker
	closed  bool
}

// Supported says why worker mode cannot run on this platform, or nil.
func Supported() error { return SupportedOn(platform.GOOS) }

// SupportedOn says why worker mode cannot run on goos, or nil: how a
// worker's exit is seen without reaping it (waitid with WNOWAIT) and what
// is read of a running worker (its CPU-time clock, /proc/PID counters,
// perf counters on its threads) exist only on Linux.
func SupportedOn(goos string) error {
	const facility = "worker mode (waitid WNOWAIT, process CPU-time clocks, /proc/PID counters)"
	return platform.CheckOn(facility, goos)
}

// Start starts the worker and reads its handshake. On any error the
// process, if started, is killed and reaped. It refuses where Supported
// says worker mode cannot run.
func Start(opts Options) (*Worker, error) {
	if err := Supported(); err != nil {
		return nil, err
	}
	if len(opts.Argv) == 0 || opts.Argv[0] == "" {
		return nil, errors.New("empty worker command")
	}
	if opts.StartTimeout < 0 || opts.RequestTimeout < 0 {
		return nil, errors.New("negative worker timeout")
	}
	path, err := lookPath(opts.Argv[0], opts.Dir)
	if err != nil {
		return nil, err
	}
	w := &Worker{argv: slices.Clone(opts.Argv), timeout: orDefault(opts.RequestTimeout, DefaultRequestTimeout)}
	if err := w.start(path, opts); err != nil {
		w.closeFiles()
		return nil, err
	}
	if err := w.handshake(orDefault(opts.StartTimeout, DefaultStartTimeout)); err != nil {
		w.closeFiles()
		return nil, err
	}
	return w, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// start creates the pipes and the capture and forks the worker.
func (w *Worker) start(path string, opts Options) error {
	if err := checkDir(opts.Dir); err != nil {
		return err
	}
	var err error
	var inR, outW int
	if w.stdin, inR, err = pipe(false); err != nil {
		return err
	}
	defer unix.Close(inR)
	if w.stdout, outW, err = pipe(true); err != nil {
		return err
	}
	defer unix.Close(outW)
	errFD, err := w.stderrFD(opts)
	if err != nil {
		return err
	}
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	attr := &syscall.ProcAttr{Dir: opts.Dir, Env: env, Files: []uintptr{uintptr(inR), uintptr(outW), errFD},
		Sys: &syscall.SysProcAttr{Setpgid: true}}
	pid, err := syscall.ForkExec(path, w.argv, attr)
	if err != nil {
		return fmt.Errorf("start worker %s: %w", runner.DisplayArgv(w.argv), err)
	}
	w.lastPID = pid
	w.guard.Publish(pid)
	w.br = bufio.NewReaderSize(w.stdout, wproto.MaxLine)
	return nil
}

// pipe makes a pipe whose harness end is pollable (so that deadlines work)
// and whose worker end is a blocking descriptor, closed after the fork.
func pipe(harnessReads bool) (*os.File, int, error) {
	var p [2]int
	if err := pipeCloexec(p[:]); err != nil {
		return nil, -1, fmt.Errorf("create worker pipe: %w", err)
	}
	mine, theirs := p[1], p[0]
	if harnessReads {
		mine, theirs = p[0], p[1]
	}
	if err := unix.SetNonblock(mine, true); err != nil {
		unix.Close(p[0])
		unix.Close(p[1])
		return nil, -1, fmt.Errorf("create worker pipe: %w", err)
	}
	return os.NewFile(uintptr(mine), "worker pipe"), theirs, nil
}

// stderrFD is what the worker's fd 2 will be: the shown file, or a new
// capture.
func (w *Worker) stderrFD(opts Options) (uintptr, error) {
	if opts.ShowStderr {
		out := opts.Stderr
		if out == nil {
			out = os.Stderr
		}
		if out.Fd() == 1 {
			return 0, errors.New("shown worker stderr must not go to stdout, which carries the record stream")
		}
		return out.Fd(), nil
	}
	f, err := runner.MemFile("flybench-worker-stderr", "worker stderr capture")
	if err != nil {
		return 0, fmt.Errorf("create stderr capture: %w", err)
	}
	w.capture = f
	return f.Fd(), nil
}

// handshake reads the handshake within timeout.
func (w *Worker) handshake(timeout time.Duration) error {
	_ = w.stdout.SetReadDeadline(time.Now().Add(timeout))
	hs, err := wproto.ReadHandshake(w.br)
	if err != nil {
		return w.fail(where{argv: w.argv}, err, timeout)
	}
	w.hs = hs
	return nil
}

// Handshake is what the worker declared.
func (w *Worker) Handshake() wproto.Handshake {
	h := w.hs
	h.Cases = slices.Clone(h.Cases)
	h.Axes = slices.Clone(h.Axes)
	if h.Timer != nil {
		t := *h.Timer
		h.Timer = &t
	}
	return h
}

// Pid is the worker's process id (also its process group id), kept after
// it has been reaped.
func (w *Worker) Pid() int { return w.lastPID }

// Argv is the worker's command as given.
func (w *Worker) Argv() []string { return slices.Clone(w.argv) }

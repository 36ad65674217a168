package workerexec

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/internal/wproto"
)

// exitGrace is how long a worker that closed its stdout has to exit before
// it is taken for one that closed it and hung.
const exitGrace = time.Second

// Run asks the worker to run n iterations of a case and returns its answer,
// whose case and n echo the request. A case the worker did not declare or
// an n below 1 is refused without touching the worker. Any other failure
// stops the worker (see the package comment): a *TimeoutError, an
// *ExitError, a *WorkerError, a *ProtocolError, or ErrKilled after Kill.
func (w *Worker) Run(caseName string, n int64) (wproto.Done, error) {
	switch {
	case w.err != nil:
		return wproto.Done{}, w.err
	case w.closed:
		return wproto.Done{}, fmt.Errorf("worker %s is closed", runner.DisplayArgv(w.argv))
	case !w.hs.HasCase(caseName):
		return wproto.Done{}, fmt.Errorf("worker %s has no case %q; its cases: %s", runner.DisplayArgv(w.argv), caseName, strings.Join(w.hs.Cases, ", "))
	case n < 1:
		return wproto.Done{}, fmt.Errorf("worker %s case %q: batch size %d, want at least 1", runner.DisplayArgv(w.argv), caseName, n)
	}
	at := where{argv: w.argv, caseName: caseName, request: wproto.Request{Case: caseName, N: n}.String()}
	w.trimCapture()
	line, err := w.exchange(at.request)
	if err != nil {
		return wproto.Done{}, w.fail(at, err, w.timeout)
	}
	d, err := wproto.ParseAnswer(line, w.hs.Axes)
	if err == nil {
		err = checkEcho(d, caseName, n)
	}
	if err != nil {
		return wproto.Done{}, w.fail(at.with(line), err, w.timeout)
	}
	return d, nil
}

// exchange writes a request and reads the answer's line, both within the
// request timeout.
func (w *Worker) exchange(req string) (string, error) {
	deadline := time.Now().Add(w.timeout)
	_ = w.stdin.SetWriteDeadline(deadline)
	_ = w.stdout.SetReadDeadline(deadline)
	// Kill sets killed before it moves the deadlines into the past, so
	// either this sees it or Kill's deadlines come after the ones above.
	if w.guard.Killed() {
		return "", ErrKilled
	}
	w.wbuf = append(append(w.wbuf[:0], req...), '\n')
	if _, err := w.stdin.Write(w.wbuf); err != nil {
		return "", err
	}
	return wproto.ReadLine(w.br)
}

// checkEcho checks that a done line answers the request.
func checkEcho(d wproto.Done, caseName string, n int64) error {
	switch {
	case d.Case != caseName:
		return fmt.Errorf("done names case %q, not %q", d.Case, caseName)
	case d.N != n:
		return fmt.Errorf("done reports n %d, not %d", d.N, n)
	}
	return nil
}

// fail stops the worker after err and returns what Run or Start reports:
// the error is classified, the process group killed, the worker reaped.
func (w *Worker) fail(at where, err error, timeout time.Duration) error {
	exited := false
	switch {
	case w.guard.Killed():
	case errors.Is(err, os.ErrDeadlineExceeded):
		exited = w.waitExit(0)
	case closedPipe(err):
		exited = w.waitExit(exitGrace)
	}
	killed := w.guard.Killed() // a Kill during the waits above is still a Kill
	runner.KillGroup(w.lastPID)
	w.reap()
	at.stderr = w.stderrTail()
	var out error
	var failure *wproto.Failure
	switch {
	case killed:
		out = &killedError{at}
	case exited:
		out = &ExitError{where: at, Status: w.status}
	case errors.Is(err, os.ErrDeadlineExceeded):
		out = &TimeoutError{where: at, Timeout: timeout}
	case closedPipe(err):
		out = &ProtocolError{where: at, Err: errors.New("closed its standard output but kept running")}
	case errors.As(err, &failure) && failure.Case == at.caseName:
		out = &WorkerError{where: at, Message: failure.Message}
	case errors.As(err, &failure):
		out = &ProtocolError{where: at, Err: fmt.Errorf("error line names case %q, not %q", failure.Case, at.caseName)}
	default:
		out = &ProtocolError{where: at, Err: err}
	}
	w.err = out
	return out
}

// closedPipe reports whether err means the worker's end of a pipe is gone.
func closedPipe(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.EPIPE)
}

// Kill sends SIGKILL to the worker's process group, if the worker has not
// been reaped, and makes a Run in progress return ErrKilled at once; every
// later Run returns ErrKilled too. Safe from any goroutine, such as a
// signal handler's.
func (w *Worker) Kill() {
	w.guard.Kill()
	past := time.Unix(1, 0)
	_ = w.stdout.SetReadDeadline(past)
	_ = w.stdin.SetWriteDeadline(past)
}

// Close sends quit, waits up to QuitTimeout for the worker to exit, kills
// its process group and reaps it, and releases the pipes and the capture.
// It returns an *ExitError if the worker exited with a status other than
// 0, and a *TimeoutError if it had to be killed; nil after Kill or after a
// Run failure, which have stopped the worker already.
func (w *Worker) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	var err error
	if !w.reaped {
		err = w.quit()
	}
	w.closeFiles()
	return err
}

// quit asks the worker to exit and judges how it did.
func (w *Worker) quit() error {
	at := where{argv: w.argv, request: wproto.Quit}
	_ = w.stdin.SetWriteDeadline(time.Now().Add(QuitTimeout))
	_, _ = w.stdin.Write([]byte(wproto.Quit + "\n")) // a worker gone already is judged by its status
	_ = w.stdin.Close()
	exited := w.waitExit(QuitTimeout)
	killed := w.guard.Killed()
	runner.KillGroup(w.lastPID) // and whatever it left running in its group
	w.reap()
	switch {
	case killed:
		return nil
	case !exited:
		return &TimeoutError{where: at, Timeout: QuitTimeout}
	case w.status != 0:
		at.stderr = w.stderrTail()
		return &ExitError{where: at, Status: w.status}
	}
	return nil
}

func (w *Worker) closeFiles() {
	for _, f := range []*os.File{w.stdin, w.stdout, w.capture} {
		if f != nil {
			_ = f.Close()
		}
	}
}

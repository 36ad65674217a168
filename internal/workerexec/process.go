package workerexec

import (
	"fmt"
	"io"

	"github.com/flybench/flybench/internal/runner"
)

// lookPath resolves the worker program as internal/runner resolves commands.
func lookPath(name, dir string) (string, error) {
	p, err := runner.LookPath(name, dir)
	if err != nil {
		return "", fmt.Errorf("worker %w", err)
	}
	return p, nil
}

func checkDir(dir string) error {
	if err := runner.CheckDir(dir); err != nil {
		return fmt.Errorf("worker %w", err)
	}
	return nil
}

// reap waits for the worker to exit and reaps it (see runner.Guard).
func (w *Worker) reap() {
	if w.reaped {
		return
	}
	_ = w.guard.Reap(w.lastPID, nil, &w.status, nil)
	w.reaped = true
}

// TailBytes is how much of the worker's stderr an error keeps: the end.
const TailBytes = runner.TailBytes

// captureLimit is the capture size beyond which it is cut back to its tail
// between requests.
const captureLimit = 64 << 10

// stderrTail is the end of what the worker wrote to stderr: the capture's
// shared offset is where the worker writes, so its output ends there.
func (w *Worker) stderrTail() []byte {
	if w.capture == nil {
		return nil
	}
	end, err := w.capture.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil
	}
	return runner.ReadTail(w.capture, end)
}

// trimCapture keeps the capture small over a long run: between requests,
// while the worker should be idle, a capture past captureLimit is cut back
// to its tail. A worker logging from another thread at that moment may
// lose a line of its log, which only error messages would have shown.
func (w *Worker) trimCapture() {
	if w.capture == nil {
		return
	}
	end, err := w.capture.Seek(0, io.SeekCurrent)
	if err != nil || end <= captureLimit {
		return
	}
	tail := w.stderrTail()
	if _, err := w.capture.WriteAt(tail, 0); err != nil {
		return
	}
	if _, err := w.capture.Seek(int64(len(tail)), io.SeekStart); err == nil {
		_ = w.capture.Truncate(int64(len(tail)))
	}
}

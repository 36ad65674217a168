package lifecycle

import (
	"context"
	"errors"
	"io"
	"syscall"
	"testing"
)

// A signal's name and exit status are the shell's: SIGTERM 143, SIGINT 130.
func TestNameAndCode(t *testing.T) {
	if Name(syscall.SIGTERM) != "SIGTERM" || Code(syscall.SIGTERM) != 143 {
		t.Errorf("SIGTERM: %s %d", Name(syscall.SIGTERM), Code(syscall.SIGTERM))
	}
	if Name(syscall.SIGINT) != "SIGINT" || Code(syscall.SIGINT) != 130 {
		t.Errorf("SIGINT: %s %d", Name(syscall.SIGINT), Code(syscall.SIGINT))
	}
}

// Without a signal, End returns the tool's own outcome, whatever it is.
func TestEndWithoutSignal(t *testing.T) {
	if err := Read(io.Discard, "fb-test").End(nil, "read"); err != nil {
		t.Errorf("no signal, no error: got %v", err)
	}
	want := errors.New("bad line")
	if err := Read(io.Discard, "fb-test").End(want, "read"); err != want {
		t.Errorf("no signal: got %v, want the tool's error", err)
	}
}

// After a signal, a tool that succeeded says what it did with its input.
func TestInterruptedMessage(t *testing.T) {
	e := &Interrupted{Signal: syscall.SIGTERM, Done: "analysed"}
	if got := e.Error(); got != "interrupted by SIGTERM: the input was read to its end and what arrived was analysed" {
		t.Errorf("%q", got)
	}
}

// Stopping the watch cancels the context without a Signalled cause.
func TestCancelStop(t *testing.T) {
	ctx, stop := Cancel(context.Background())
	stop()
	<-ctx.Done()
	var s Signalled
	if errors.As(context.Cause(ctx), &s) {
		t.Errorf("stopped context has a signal cause %v", s)
	}
}

// Package lifecycle is how a tool lives through SIGINT and SIGTERM.
//
// A terminal's Ctrl-C signals the whole foreground process group: in
// fb-pair ... | fb-analyze | fb-report every stage at once. The producer
// stops at a unit boundary and ends its stream with an end record; the
// readers must still be there to take it. So on the first SIGINT or
// SIGTERM a reading tool only says so and goes on reading until its input
// ends, then writes what arrived and exits 130 or 143 (Reading); a second
// signal ends it at once. A tool that runs a command to completion
// instead cancels its work and forwards the signal (Cancel). And a tool
// whose standard output's reader went away sees a failed write, not
// SIGPIPE (CatchSIGPIPE).
package lifecycle

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// Name names a signal that stopped a tool.
func Name(s os.Signal) string {
	if s == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}

// Code is the exit status of a tool a signal stopped, as a shell reports
// it: 143 for SIGTERM, 130 for SIGINT.
func Code(s os.Signal) int {
	if s == syscall.SIGTERM {
		return 143
	}
	return 130
}

// CatchSIGPIPE turns a reader of standard output that went away from a
// silent death by SIGPIPE into a write that fails with EPIPE, which the
// tool reports, cleaning up as after any failed write. The signal is
// caught, not ignored: a caught signal is reset to its default by exec,
// so the commands a tool starts still die of SIGPIPE as usual.
func CatchSIGPIPE() {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
}

// Exit ends the process on a second signal; a variable so it can be faked.
var Exit = os.Exit

// Reading watches for SIGINT and SIGTERM while a reading tool runs.
type Reading struct {
	tool   string
	stderr io.Writer
	sigs   chan os.Signal
	quit   chan struct{}
	mu     sync.Mutex
	first  os.Signal // nil until a signal came
}

// Read starts watching for tool, whose warnings go to stderr: the first
// signal is a warning, the second ends the process at once (Exit).
func Read(stderr io.Writer, tool string) *Reading {
	r := &Reading{tool: tool, stderr: stderr, sigs: make(chan os.Signal, 2), quit: make(chan struct{})}
	signal.Notify(r.sigs, syscall.SIGINT, syscall.SIGTERM)
	go r.watch()
	return r
}

// watch warns of the first signal and exits on the second.
func (r *Reading) watch() {
	for {
		select {
		case s := <-r.sigs:
			r.mu.Lock()
			first := r.first == nil
			if first {
				r.first = s
			}
			r.mu.Unlock()
			if !first {
				fmt.Fprintf(r.stderr, "%s: error: %s again: stopped at once; the output is incomplete\n", r.tool, Name(s))
				Exit(Code(s))
			}
			fmt.Fprintf(r.stderr, "%s: warning: %s: reading the input to its end, then writing what arrived (a second signal stops at once)\n",
				r.tool, Name(s))
		case <-r.quit:
			return
		}
	}
}

// End stops watching. After a signal, a tool whose work succeeded (err
// nil) gets an *Interrupted saying what it did with its input, done
// ("analysed", "reported"); any other outcome is returned as it is.
func (r *Reading) End(err error, done string) error {
	signal.Stop(r.sigs)
	close(r.quit)
	r.mu.Lock()
	s := r.first
	r.mu.Unlock()
	if s == nil || err != nil {
		return err
	}
	return &Interrupted{Signal: s, Done: done}
}

// Interrupted is a reading tool a signal interrupted: it read its input
// to its end and did its work with what arrived.
type Interrupted struct {
	Signal os.Signal
	Done   string // what was done with the input
}

func (e *Interrupted) Error() string {
	return fmt.Sprintf("interrupted by %s: the input was read to its end and what arrived was %s", Name(e.Signal), e.Done)
}

// Signalled is the cause of a context a signal cancelled; Signal is the
// signal to forward to what runs.
type Signalled struct{ sig syscall.Signal }

func (s Signalled) Error() string { return "interrupted by " + Name(s.sig) }

// Signal is the signal that came.
func (s Signalled) Signal() syscall.Signal { return s.sig }

// Cancel returns a context the first SIGINT or SIGTERM cancels, with a
// Signalled cause, and stop, which stops watching and cancels it.
func Cancel(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		if s, ok := <-sigs; ok {
			cancel(Signalled{s.(syscall.Signal)})
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		cancel(nil)
	}
}

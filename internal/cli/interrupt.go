package cli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	ucli "github.com/urfave/cli/v2"
)

// A terminal's Ctrl-C signals the whole foreground process group: in
// fb-pair ... | fb-analyze | fb-report every stage at once. The producer
// stops at a unit boundary and ends its stream with an end record; the
// readers must still be there to take it. So on the first SIGINT or
// SIGTERM a reading tool only says so and goes on reading until its input
// ends, then writes what arrived and exits 130 or 143; a second signal
// ends it at once.

// exitNow ends the process on a second signal.
var exitNow = os.Exit

// interruptible wraps a reading tool's action in that behaviour; done
// says what it did with the input ("analysed", "reported").
func interruptible(env Env, tool, done string, action ucli.ActionFunc) ucli.ActionFunc {
	return func(c *ucli.Context) error {
		in := catchInterrupts(env.Stderr, tool)
		err := action(c)
		return in.end(err, done)
	}
}

// interrupts watches for SIGINT and SIGTERM while a reading tool runs.
type interrupts struct {
	tool   string
	stderr io.Writer
	sigs   chan os.Signal
	quit   chan struct{}
	mu     sync.Mutex
	first  os.Signal // nil until a signal came
}

func catchInterrupts(stderr io.Writer, tool string) *interrupts {
	in := &interrupts{tool: tool, stderr: stderr, sigs: make(chan os.Signal, 2), quit: make(chan struct{})}
	signal.Notify(in.sigs, syscall.SIGINT, syscall.SIGTERM)
	go in.watch()
	return in
}

// watch warns of the first signal and exits on the second.
func (in *interrupts) watch() {
	for {
		select {
		case s := <-in.sigs:
			in.mu.Lock()
			first := in.first == nil
			if first {
				in.first = s
			}
			in.mu.Unlock()
			if !first {
				fmt.Fprintf(in.stderr, "%s: error: %s again: stopped at once; the output is incomplete\n", in.tool, signalName(s))
				exitNow(signalCode(s))
			}
			fmt.Fprintf(in.stderr, "%s: warning: %s: reading the input to its end, then writing what arrived (a second signal stops at once)\n",
				in.tool, signalName(s))
		case <-in.quit:
			return
		}
	}
}

// end stops watching. After a signal, an action that succeeded exits 130
// or 143 with a line saying what it did; any other outcome keeps its own
// status.
func (in *interrupts) end(err error, done string) error {
	signal.Stop(in.sigs)
	close(in.quit)
	in.mu.Lock()
	s := in.first
	in.mu.Unlock()
	if s == nil || err != nil {
		return err
	}
	return withCode(signalCode(s), fmt.Errorf("interrupted by %s: the input was read to its end and what arrived was %s", signalName(s), done), "")
}

// signalCode is the exit status of a tool a signal stopped.
func signalCode(s os.Signal) int {
	if s == syscall.SIGTERM {
		return ExitTerminated
	}
	return ExitInterrupted
}

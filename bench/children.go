package main

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
)

// children are the processes the bench has started and not yet reaped, so
// that an interrupt or a fatal error kills them instead of leaving a
// background load spinning on a shared machine.
var children = struct {
	sync.Mutex
	procs  map[*os.Process]bool
	closed bool // set once the bench is exiting: nothing more starts
}{procs: map[*os.Process]bool{}}

// startChild starts cmd and registers it. On Linux the child is also sent
// SIGKILL by the kernel if the bench dies without running its cleanup.
func startChild(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	setDeathSignal(cmd.SysProcAttr)
	children.Lock()
	defer children.Unlock()
	if children.closed {
		return fmt.Errorf("bench is exiting")
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	children.procs[cmd.Process] = true
	return nil
}

// waitChild waits for a started child and forgets it.
func waitChild(cmd *exec.Cmd) error {
	err := cmd.Wait()
	children.Lock()
	delete(children.procs, cmd.Process)
	children.Unlock()
	return err
}

// runChild starts cmd and waits for it.
func runChild(cmd *exec.Cmd) error {
	if err := startChild(cmd); err != nil {
		return err
	}
	return waitChild(cmd)
}

// stopChild kills a started child and reaps it.
func stopChild(cmd *exec.Cmd) {
	cmd.Process.Kill()
	waitChild(cmd)
}

// killChildren kills every registered child and lets no more start; the
// caller is about to exit.
func killChildren() {
	children.Lock()
	defer children.Unlock()
	children.closed = true
	for p := range children.procs {
		p.Kill()
	}
}

// exitOnInterrupt kills the children and exits 130 or 143 on SIGINT or
// SIGTERM.
func exitOnInterrupt() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		killChildren()
		fmt.Fprintf(os.Stderr, "bench: %v: stopped children, exiting\n", sig)
		os.Exit(128 + int(sig.(syscall.Signal)))
	}()
}

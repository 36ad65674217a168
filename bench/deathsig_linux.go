package main

import "syscall"

// setDeathSignal has the kernel kill the child when the bench dies.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

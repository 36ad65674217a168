package tests

import "syscall"

// dieWithParent has the kernel kill the child when the test process dies.
func dieWithParent() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }

//go:build !linux

package tests

import "syscall"

// dieWithParent is empty: there is no parent-death signal here, so only the
// test's cleanup and the child's own time limit stop it.
func dieWithParent() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }

//go:build !linux

package main

import "syscall"

// setDeathSignal does nothing: there is no parent-death signal here, so
// only the bench's own cleanup kills its children.
func setDeathSignal(*syscall.SysProcAttr) {}

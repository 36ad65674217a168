//go:build !linux

package main

import (
	"os"
	"runtime"
	"time"
)

// allowedCPUs is every CPU: there is no affinity call here.
func allowedCPUs() []int { return firstCPUs(runtime.NumCPU()) }

// pin does nothing: one-cpu bursts run on whichever CPU the kernel picks.
func pin([]int) error { return nil }

// nap sleeps for ns nanoseconds.
func nap(ns int64) { time.Sleep(time.Duration(ns)) }

// dropCache does nothing: reads may come from the page cache.
func dropCache(*os.File) {}

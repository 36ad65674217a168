// Package claim implements the host CPU claim convention, version 1, of man
// fb-claim(5), so that benchmarks, load generators and profilers on one
// machine take turns instead of measuring each other.
//
// A machine-wide claim is an exclusive flock(2) on DIR/machine. A per-CPU
// claim is a shared flock on DIR/machine plus an exclusive flock on DIR/cpu.N
// for each claimed CPU, taken in ascending order. Liveness is the lock
// itself: a killed holder releases. The files' content names the holder for
// people and status readers and is never consulted to decide anything.
package claim

import (
	"strconv"
	"strings"
	"time"
)

// The convention's names and defaults.
const (
	// DefaultDir is the one claim directory every participant uses unless
	// told otherwise. There is deliberately no fallback chain.
	DefaultDir = "/tmp/host-cpu-claim"
	// DirEnv names an environment variable that overrides DefaultDir.
	DirEnv = "HOST_CPU_CLAIM_DIR"
	// FDsEnv lists, comma-separated, the inherited descriptors that hold
	// the claim (see ProtectFDs).
	FDsEnv = "HOST_CPU_CLAIM_FDS"
	// MachineFile is the claim file every claim locks.
	MachineFile = "machine"
	// Version is the convention version written into claim files.
	Version = 1

	DefaultTimeout = 30 * time.Second
	DefaultPoll    = 250 * time.Millisecond
)

// Scopes of a claim, as written in the content's scope key.
const (
	ScopeMachine = "machine"
	ScopeCPUs    = "cpus"
)

// Outcome is how a claim attempt ended. The values are those of the lock
// record's outcome field (man fb-stream(5)).
type Outcome string

const (
	// Held: the claim is held and covers the machine as far as can be
	// determined from inside it.
	Held Outcome = "held"
	// NamespaceScoped: the claim is held, but the directory is in a private
	// mount (systemd PrivateTmp), so it excludes only processes sharing it.
	NamespaceScoped Outcome = "namespace_scoped"
	// Busy: a conflicting holder was still present at the timeout.
	Busy Outcome = "busy"
	// PathUnusable: the claim directory or a claim file could not be used.
	PathUnusable Outcome = "path_unusable"
)

// CPUFile is the name of CPU n's claim file.
func CPUFile(n int) string { return "cpu." + strconv.Itoa(n) }

// cpuOfFile returns N for a name "cpu.N" with N in canonical decimal.
func cpuOfFile(name string) (int, bool) {
	s, ok := strings.CutPrefix(name, "cpu.")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || strconv.Itoa(n) != s {
		return 0, false
	}
	return n, true
}

// isClaimFile reports whether name is a file of the convention.
func isClaimFile(name string) bool {
	_, cpu := cpuOfFile(name)
	return cpu || name == MachineFile
}

// Dir returns the claim directory: flag if set, else $HOST_CPU_CLAIM_DIR,
// else DefaultDir.
func Dir(flag string, getenv func(string) string) string {
	if flag != "" {
		return flag
	}
	if d := getenv(DirEnv); d != "" {
		return d
	}
	return DefaultDir
}

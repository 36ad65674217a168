//go:build !linux

package recorder

// threadReason says why thread CPU time is unavailable here.
const threadReason = "thread CPU time is read from a thread's CPU clock and its id (gettid), on Linux only"

func gettid() int32 { return 0 }

func threadCPU(int32) (int64, bool) { return 0, false }

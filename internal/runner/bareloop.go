package runner

import (
	"fmt"
	"os"
	"syscall"

	"github.com/flybench/flybench/pkg/probes"
)

// BareLoop is the reference for the harness's own overhead: n runs of argv
// with the most direct fork/exec/wait4 loop the syscall package allows,
// with stdin, stdout and stderr on /dev/null, no process group, no capture,
// no rusage and no Kill bookkeeping. It returns the elapsed nanoseconds.
func BareLoop(argv []string, n int, clk probes.Clock) (int64, error) {
	if len(argv) == 0 {
		return 0, fmt.Errorf("bare loop: empty command")
	}
	path, err := LookPath(argv[0], "")
	if err != nil {
		return 0, err
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", os.DevNull, err)
	}
	defer null.Close()
	fd := null.Fd()
	attr := &syscall.ProcAttr{Env: os.Environ(), Files: []uintptr{fd, fd, fd}}
	var ws syscall.WaitStatus
	start := clk.Now()
	for range n {
		pid, err := syscall.ForkExec(path, argv, attr)
		if err != nil {
			return 0, fmt.Errorf("start %s: %w", DisplayArgv(argv), err)
		}
		_, err = syscall.Wait4(pid, &ws, 0, nil)
		for err == syscall.EINTR {
			_, err = syscall.Wait4(pid, &ws, 0, nil)
		}
		if err != nil || ws != 0 {
			return 0, fmt.Errorf("bare loop: %s: wait status %#x: %v", DisplayArgv(argv), uint32(ws), err)
		}
	}
	return clk.Now() - start, nil
}

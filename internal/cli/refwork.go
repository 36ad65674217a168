package cli

import (
	"fmt"
	"os"
	"strconv"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/refwork"
	"github.com/flybench/flybench/internal/runner"
)

// refworkApp is fb-refwork: the built-in reference workloads of
// --reference, as a program fb-pair and fb-sample run like any command.
func refworkApp(env Env) *ucli.App {
	app := newApp(env, "fb-refwork", "run a fixed reference workload: integer arithmetic or a memory stream",
		"int|mem",
		fmt.Sprintf("Performs N operations of a fixed workload and exits; fb-pair --reference int|mem runs it\n"+
			"beside the measured commands so their times can be divided by it (man fb-refwork(1)).\n"+
			"  int  %d xorshift steps on one 64-bit register: no memory traffic, no allocation\n"+
			"  mem  one sequential read of a %d MiB buffer, filled once per process before the first operation\n"+
			"N is --iterations, or FLYBENCH_N in batch mode (man fb-worker(7)).\n\n"+
			"Exit status: 0 done, 1 the report channel could not be written, 2 usage.",
			refwork.IntSteps, refwork.MemBytes>>20),
	)
	app.Flags = []ucli.Flag{
		&ucli.Int64Flag{Name: "iterations", Aliases: []string{"n"}, Value: 1, EnvVars: []string{runner.EnvN}, Usage: "operations to perform (at least 1)"},
		&ucli.BoolFlag{Name: "verbose", Usage: "print the work done (operations, units of work, checksum) and its time on stderr"},
		&ucli.BoolFlag{Name: "report", Usage: "write \"done N elapsed_ns=T\" on the batch report channel (FLYBENCH_REPORT_FD, else fd 3): T covers the N operations, the mem buffer's set-up excluded"},
	}
	app.Action = func(c *ucli.Context) error {
		if c.NArg() != 1 {
			return usageErrorf("give one workload: %s", refwork.Describe())
		}
		n := c.Int64("iterations")
		if n < 1 {
			return usageErrorf("--iterations %d: give at least 1", n)
		}
		w, err := refwork.New(c.Args().First())
		if err != nil {
			return withCode(ExitUsage, err, "")
		}
		start := time.Now()
		work := w.Run(n)
		elapsed := time.Since(start)
		if c.Bool("verbose") {
			fmt.Fprintf(env.Stderr, "fb-refwork: %s: %d operations, %d %s, checksum %016x, %v\n",
				c.Args().First(), work.Ops, work.Units, refwork.UnitName(c.Args().First()), work.Checksum, elapsed)
		}
		if !c.Bool("report") {
			return nil
		}
		return writeDone(env, n, elapsed)
	}
	return app
}

// writeDone writes the batch report line on the report channel.
func writeDone(env Env, n int64, elapsed time.Duration) error {
	fd := runner.ReportFD
	if s := env.Getenv(runner.EnvReportFD); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			return usageErrorf("%s=%q is not a file descriptor", runner.EnvReportFD, s)
		}
		fd = v
	}
	f := os.NewFile(uintptr(fd), "report channel")
	if f == nil {
		return fmt.Errorf("report channel: fd %d is not open", fd)
	}
	if _, err := fmt.Fprintf(f, "done %d elapsed_ns=%d\n", n, elapsed.Nanoseconds()); err != nil {
		return fmt.Errorf("report channel (fd %d): %w; run with --batch, or drop --report", fd, err)
	}
	return nil
}

// Command recordsvc is a small HTTP service on the loopback interface,
// instrumented with the recorder package, and a bounded load client in
// the same program that drives it and stops. Each path is a benchmark of
// its own: a fast answer, a CPU-heavy one, a memory burst, a wait, one
// that is slow every tenth request and one that fails every seventh.
//
// The recording goes to standard output, or to the Unix socket named by
// FLYBENCH_RECORD_SOCKET when set (fb-record sets it for the program it
// starts), streamed span by span as requests finish so that fb-record's
// live display follows the run. A summary line goes to standard error.
//
//	recordsvc -requests 600 -concurrency 8 | fb-analyze | fb-report
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/flybench/flybench/recorder"
)

// socketEnv names the Unix socket to write the recording to.
const socketEnv = "FLYBENCH_RECORD_SOCKET"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// config is the command line.
type config struct {
	requests, concurrency, capacity int
	duration                        time.Duration
	retention                       recorder.Policy
	axes                            recorder.Axis
	seed                            uint64
}

// run is the whole program; it returns the exit code: 0, 1 when the
// service or the recording failed, 2 for a bad command line.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	cfg, err := parse(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "recordsvc: error: %v\n", err)
		}
		return 2
	}
	out, closeOut, err := output(stdout, getenv(socketEnv))
	if err != nil {
		fmt.Fprintf(stderr, "recordsvc: error: %v\n", err)
		return 1
	}
	defer closeOut()
	if err := serve(ctx, cfg, out, getenv(socketEnv) != "", stderr); err != nil {
		fmt.Fprintf(stderr, "recordsvc: error: %v\n", err)
		return 1
	}
	return 0
}

func parse(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("recordsvc", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := config{}
	fs.IntVar(&cfg.requests, "requests", 600, "requests the load client sends, cycling through the paths")
	fs.IntVar(&cfg.concurrency, "concurrency", 8, "concurrent clients")
	fs.DurationVar(&cfg.duration, "duration", 30*time.Second, "stop sending after this long even if requests remain")
	fs.IntVar(&cfg.capacity, "capacity", recorder.DefaultCapacity, "spans kept per benchmark")
	retention := fs.String("retention", "reservoir", "retention policy: reservoir, first or latest")
	axes := fs.String("axes", "all", "axes besides wall time, comma-separated: thread_cpu, process_cpu, process_rss, process_faults, process_switches, process_io, perf_task_clock, perf_context_switches, perf_page_faults, perf, all (every axis but the perf ones) or none")
	fs.Uint64Var(&cfg.seed, "seed", 1, "reservoir seed")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if cfg.requests < 1 || cfg.concurrency < 1 || cfg.capacity < 1 || cfg.duration <= 0 {
		return cfg, errors.New("-requests, -concurrency, -capacity and -duration must be positive")
	}
	var err error
	if cfg.retention, err = policy(*retention); err != nil {
		return cfg, err
	}
	cfg.axes, err = axisSet(*axes)
	return cfg, err
}

func policy(s string) (recorder.Policy, error) {
	for _, p := range []recorder.Policy{recorder.Reservoir, recorder.FirstN, recorder.LatestN} {
		if p.String() == s {
			return p, nil
		}
	}
	return 0, fmt.Errorf("-retention %q: use reservoir, first or latest", s)
}

var axisNames = map[string]recorder.Axis{
	"thread_cpu": recorder.ThreadCPU, "process_cpu": recorder.ProcessCPU, "process_rss": recorder.ProcessRSS,
	"process_faults": recorder.ProcessFaults, "process_switches": recorder.ProcessSwitches,
	"process_io": recorder.ProcessIO, "all": recorder.AllAxes, "none": 0,
	"perf_task_clock": recorder.PerfTaskClock, "perf_context_switches": recorder.PerfContextSwitches,
	"perf_page_faults": recorder.PerfPageFaults, "perf": recorder.PerfAxes,
}

func axisSet(s string) (recorder.Axis, error) {
	var sel recorder.Axis
	for name := range strings.SplitSeq(s, ",") {
		a, ok := axisNames[strings.TrimSpace(name)]
		if !ok {
			return 0, fmt.Errorf("-axes: unknown axis %q", name)
		}
		sel |= a
	}
	return sel, nil
}

// output is the Unix socket at path, or stdout when path is empty.
func output(stdout io.Writer, path string) (io.Writer, func(), error) {
	if path == "" {
		return stdout, func() {}, nil
	}
	conn, err := net.Dial("unix", path)
	if err != nil {
		return nil, nil, fmt.Errorf("connect to %s=%q: %w", socketEnv, path, err)
	}
	return conn, func() { conn.Close() }, nil
}

// serve records the service while the load client drives it, streaming
// the spans when asked, and stops the recording once the server has
// finished every request.
func serve(ctx context.Context, cfg config, out io.Writer, stream bool, stderr io.Writer) error {
	rec := recorder.New(recorder.Options{Out: out, Stream: stream, Retention: cfg.retention, Capacity: cfg.capacity,
		Seed: cfg.seed, Axes: cfg.axes, Tags: map[string]string{"program": "recordsvc"}})
	eps := endpoints()
	srv := &http.Server{Handler: mux(rec, eps), ReadHeaderTimeout: 10 * time.Second}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("listen on the loopback interface: %w", err)
	}
	if err := rec.Start(); err != nil {
		ln.Close()
		return err
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	paths := make([]string, len(eps))
	for i, ep := range eps {
		paths[i] = ep.path
	}
	l := drive(ctx, "http://"+ln.Addr().String(), paths, cfg.requests, cfg.concurrency, cfg.duration)
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return fmt.Errorf("shut the service down: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintf(stderr, "recordsvc: %d requests in %.2fs (%d concurrent) on %s, %d not answered 200\n",
		l.sent, l.elapsed.Seconds(), cfg.concurrency, ln.Addr(), l.errors)
	return rec.Stop()
}

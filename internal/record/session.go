package record

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/flybench/flybench/internal/progress"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Timings of a session's end.
const (
	// Drain is how long connections may go on delivering once the
	// recording ends; then they are cut off.
	Drain = 500 * time.Millisecond
	// Grace is how long PROGRAM has to exit after it is sent SIGTERM (or
	// a forwarded signal) before its process group is killed.
	Grace = 5 * time.Second
	// UsageEvery is the interval of process records.
	UsageEvery = time.Second
)

// Options configure a session.
type Options struct {
	Policy   Policy
	Socket   string // the socket to listen on, or
	FIFO     string // the FIFO to make and read
	Refresh  time.Duration
	Mode     progress.Mode
	Duration time.Duration // 0: until PROGRAM exits or a signal
	Program  []string      // argv[0] resolved to Path
	Path     string
	Meta     Meta
}

// Result is how a session ended.
type Result struct {
	Reason   string
	Signal   os.Signal  // SIGINT or SIGTERM that ended it
	Program  *exec.Cmd  // the observed program, reaped
	ExitErr  error      // PROGRAM's exit (nil for status 0)
	WriteErr error      // the stream could not be written
	Rec      *Recording // the recording, for the summary
	Started  bool       // PROGRAM was started
}

// StartError is a PROGRAM that could not be started.
type StartError struct {
	Program string
	Err     error
}

func (e *StartError) Error() string { return fmt.Sprintf("start %q: %v", e.Program, e.Err) }

func (e *StartError) Unwrap() error { return e.Err }

// session is one fb-record run in progress.
type session struct {
	opt    Options
	rec    *Recording
	srv    *Server
	disp   *Display
	sample Sampler
	usage  []ndjson.ProcessUsage
	cmd    *exec.Cmd
	exited chan error
}

// Run records until PROGRAM exits, --duration elapses or SIGINT or
// SIGTERM arrives, then writes the whole stream to out. Listening errors
// and a PROGRAM that cannot start are returned as errors before anything
// is written.
func Run(opt Options, clock Clock, out, stderr io.Writer) (Result, error) {
	s := &session{opt: opt, rec: New(opt.Policy, clock), disp: NewDisplay(stderr, opt.Mode)}
	if err := s.listen(); err != nil {
		return Result{}, err
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	s.sample = Sampler{Self: SelfProc{}}
	s.sample.Start(0)
	if err := s.start(); err != nil {
		s.srv.Close(0)
		return Result{}, err
	}
	res := s.wait(sigs)
	s.srv.Close(Drain)
	s.usage = append(s.usage, s.sample.Sample(s.rec.Now()))
	s.draw()
	w := ndjson.NewBufferedWriter(out, 1<<20, time.Second)
	res.WriteErr = s.rec.Write(w, s.meta(), s.usage, res.Reason)
	res.Rec, res.Program = s.rec, s.cmd
	return res, nil
}

func (s *session) listen() error {
	var err error
	if s.opt.FIFO != "" {
		s.srv, err = ListenFIFO(s.rec, s.opt.FIFO, s.disp.Warn)
	} else {
		s.srv, err = ListenSocket(s.rec, s.opt.Socket, s.disp.Warn)
	}
	return err
}

// start starts PROGRAM in a process group of its own, its stdout on
// stderr (stdout is the stream), with the socket or FIFO in its
// environment.
func (s *session) start() error {
	if len(s.opt.Program) == 0 {
		return nil
	}
	cmd := exec.Command(s.opt.Path, s.opt.Program[1:]...)
	cmd.Args[0] = s.opt.Program[0]
	if s.opt.FIFO != "" {
		cmd.Env = append(os.Environ(), "FLYBENCH_RECORD_FIFO="+s.opt.FIFO)
	} else {
		cmd.Env = append(os.Environ(), "FLYBENCH_RECORD_SOCKET="+s.opt.Socket)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stderr, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return &StartError{Program: s.opt.Program[0], Err: err}
	}
	s.cmd, s.exited = cmd, make(chan error, 1)
	go func() { s.exited <- cmd.Wait() }()
	s.sample.Program = GroupProc{PGID: cmd.Process.Pid, Proc: os.DirFS("/proc")}
	return nil
}

// wait runs the live display and process records until the recording
// ends, and stops PROGRAM.
func (s *session) wait(sigs <-chan os.Signal) Result {
	tick := time.NewTicker(s.interval())
	defer tick.Stop()
	usage := time.NewTicker(UsageEvery)
	defer usage.Stop()
	var stop <-chan time.Time
	if s.opt.Duration > 0 {
		t := time.NewTimer(s.opt.Duration)
		defer t.Stop()
		stop = t.C
	}
	for {
		select {
		case err := <-s.exited:
			s.exited = nil
			if err != nil {
				return Result{Reason: ReasonProgramFailed, ExitErr: err, Started: true}
			}
			return Result{Reason: ReasonProgramExited, Started: true}
		case sig := <-sigs:
			res := Result{Reason: ReasonInterrupted, Signal: sig, Started: s.cmd != nil}
			res.ExitErr = s.stopProgram(sig, sigs)
			return res
		case <-stop:
			res := Result{Reason: ReasonDuration, Started: s.cmd != nil}
			s.stopProgram(syscall.SIGTERM, sigs)
			return res
		case <-usage.C:
			s.usage = append(s.usage, s.sample.Sample(s.rec.Now()))
		case <-tick.C:
			s.draw()
		}
	}
}

// interval is the display's refresh: --refresh on a terminal, one second
// otherwise.
func (s *session) interval() time.Duration {
	if s.opt.Mode == progress.TTY {
		return s.opt.Refresh
	}
	return UsageEvery
}

// stopProgram sends sig to PROGRAM's process group and reaps it, killing
// the group after Grace or at a second signal.
func (s *session) stopProgram(sig os.Signal, sigs <-chan os.Signal) error {
	if s.cmd == nil {
		return nil
	}
	pgid := s.cmd.Process.Pid
	syscall.Kill(-pgid, sig.(syscall.Signal))
	grace := time.NewTimer(Grace)
	defer grace.Stop()
	for {
		select {
		case err := <-s.exited:
			s.exited = nil
			return err
		case <-grace.C:
			syscall.Kill(-pgid, syscall.SIGKILL)
		case <-sigs:
			syscall.Kill(-pgid, syscall.SIGKILL)
		}
	}
}

func (s *session) draw() {
	f := Frame{Elapsed: time.Duration(s.rec.Now()), Benches: s.rec.Statuses()}
	if n := len(s.usage); n > 0 {
		u := s.usage[n-1]
		f.HasUsage, f.CPUPct, f.RSS = true, u.RecorderCPU+u.ProgramCPU, u.RecorderRSS+u.ProgramRSS
	}
	s.disp.Draw(f)
}

func (s *session) meta() Meta {
	m := s.opt.Meta
	if s.cmd != nil {
		m.Program = &ndjson.RecordedProgram{Argv: s.opt.Program, PID: s.cmd.Process.Pid}
	}
	return m
}

package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/pkg/ndjson"
)

// resumeRequest is --resume FILE and --retry-failed.
type resumeRequest struct {
	path  string
	retry bool
}

// resumeOf reads --resume and --retry-failed; nil without --resume.
func resumeOf(c *ucli.Context, invocations int) (*resumeRequest, error) {
	path, retry := c.String("resume"), c.Bool("retry-failed")
	switch {
	case path == "" && retry:
		return nil, usageErrorf("--retry-failed needs --resume FILE")
	case path == "":
		return nil, nil
	case invocations < 2:
		return nil, usageErrorf("--resume %q needs --invocations K, as the run was collected with", path)
	}
	return &resumeRequest{path: path, retry: retry}, nil
}

// session is a resumed collection: the archive it appends to and what it
// continues.
type session struct {
	f      *os.File
	w      *ndjson.Writer
	run    ndjson.Run
	blocks []collect.Block
	prior  ndjson.End
	unit   int
	seq    int
}

func (s *session) close() {
	if s != nil {
		_ = s.f.Close()
	}
}

// apply makes the engine continue the archived run.
func (s *session) apply(e *collect.Engine) {
	e.Run = s.run
	e.Process.Blocks, e.Process.Resumed, e.Process.Prior = s.blocks, true, s.prior
	e.Process.FirstUnit, e.Process.FirstSeq = s.unit, s.seq
}

// openSession reads the archive, checks it against this invocation,
// removes its end record (the resumed session writes the run's end
// record), records an abandoned block, and opens it for appending.
func (m *measurement) openSession() (*session, error) {
	path := m.resume.path
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return nil, withCode(ExitUsage, fmt.Errorf("--resume: %w", err), "")
	}
	s, err := m.startSession(f)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return s, nil
}

func (m *measurement) startSession(f *os.File) (*session, error) {
	a, err := scanArchive(ndjson.NewReader(f, f.Name()))
	if err != nil {
		return nil, archiveError(err)
	}
	if err := m.matches(a); err != nil {
		return nil, err
	}
	blocks := a.plan(m.cfg.Invocations, m.resume.retry)
	if len(blocks) == 0 {
		return nil, usageErrorf("--resume %q: run %s already has %d complete blocks; nothing to collect", f.Name(), a.run.RunID, a.completeCount())
	}
	if a.end != nil {
		if err := dropLastLine(f, ndjson.TypeEnd); err != nil {
			return nil, err
		}
	}
	s := &session{f: f, w: ndjson.NewWriter(f), run: a.run, blocks: blocks, prior: a.kept, unit: a.nextUnit, seq: a.nextSeq}
	if b := a.abandoned(); b != nil {
		if err := s.w.Write(b); err != nil {
			return nil, err
		}
	}
	m.cfg.Samples = a.samples
	return s, nil
}

// archiveError classifies a problem reading the archive: a bad line or
// schema as any reader's, the rest (no run, not blocks) as bad input.
func archiveError(err error) error {
	var se *ndjson.SyntaxError
	var ve *ndjson.VersionError
	if errors.As(err, &se) || errors.As(err, &ve) {
		return streamError(err, "resume only a stream fb-pair --invocations wrote")
	}
	return withCode(ExitBadInput, fmt.Errorf("--resume: %w", err), "")
}

// matches refuses an archive collected otherwise than this invocation
// asks: other cases, commands, mode, design, counts, seed or host.
func (m *measurement) matches(a *archived) error {
	r := a.run
	var diffs []string
	add := func(what string, was, now any) {
		if fmt.Sprint(was) != fmt.Sprint(now) {
			diffs = append(diffs, fmt.Sprintf("%s %v (now %v)", what, was, now))
		}
	}
	add("mode", r.Mode, m.mode)
	add("cases", len(r.Cases), len(m.cases))
	for i := range min(len(r.Cases), len(m.cases)) {
		add(fmt.Sprintf("case %d", i), r.Cases[i].Name+" = "+r.Cases[i].Command, m.cases[i].Name+" = "+m.cases[i].Command)
	}
	add("design", r.Design, m.cfg.Design(len(m.cases)))
	add("batching", r.Batching, m.cfg.BatchingName())
	add("--size-spread", max(r.Config.SizeSpread, 1), m.cfg.SizeSpread)
	add("--invocations", r.Config.Invocations, m.cfg.Invocations)
	add("--seed", r.Seed, m.cfg.Seed)
	add("--randomize-layout", r.Config.Layout != nil && r.Config.Layout.Randomized, m.cfg.RandomizeLayout)
	if m.cfg.Samples != collect.AutoSamples {
		add("--samples", a.samples, m.cfg.Samples)
	}
	if len(diffs) > 0 {
		return usageErrorf("--resume %q: run %s was collected with %s: repeat its command line", m.resume.path, r.RunID, strings.Join(diffs, ", "))
	}
	return fingerprintMatch(r, m.record)
}

// fingerprintMatch refuses a host, tool or timer other than the archive's.
func fingerprintMatch(was, now ndjson.Run) error {
	a, b := analyze.Fingerprint(was), analyze.Fingerprint(now)
	var diffs []string
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range a {
			if !yield(k) {
				return
			}
		}
	}) {
		if a[k] != b[k] {
			diffs = append(diffs, fmt.Sprintf("%s %q (now %q)", k, a[k], b[k]))
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s absent (now %q)", k, b[k]))
		}
	}
	if len(diffs) > 0 {
		return withCode(ExitCannotJudge, fmt.Errorf("--resume: the fingerprint differs from run %s's: %s", was.RunID, strings.Join(diffs, ", ")), "resume on the host, tool version and timer the run began with")
	}
	return nil
}

// dropLastLine truncates f before its last line, which must be a record
// of type typ: the stream stays whole lines, one record shorter.
func dropLastLine(f *os.File, typ string) error {
	data, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<62))
	if err != nil {
		return err
	}
	body := bytes.TrimSuffix(data, []byte("\n"))
	start := bytes.LastIndexByte(body, '\n') + 1
	if !bytes.Contains(body[start:], []byte(`"type":"`+typ+`"`)) {
		return fmt.Errorf("--resume: the last line of %s is not its %s record", f.Name(), typ)
	}
	return f.Truncate(int64(start))
}

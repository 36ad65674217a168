package measure

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// checkResume refuses a resumption that could not continue anything: a
// retry without an archive, or an archive without process blocks.
func (p *plan) checkResume() error {
	r := p.Resume
	switch {
	case r == nil:
		return nil
	case r.Path == "" && r.Retry:
		return field.Errorf("Resume.Retry", true, "%s needs %s FILE", field.Name("Resume.Retry"), field.Name("Resume.Path"))
	case r.Path == "":
		p.Resume = nil
	case p.Invocations < 2:
		return field.Errorf("Resume.Path", r.Path, "%s %q needs %s K, as the run was collected with", field.Name("Resume.Path"), r.Path, field.Name("Invocations"))
	}
	return nil
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

// openSession reads the archive, checks it against this request, removes
// its end record (the resumed session writes the run's end record),
// records an abandoned block, and opens it for appending.
func (m *measurement) openSession() (*session, error) {
	path := m.Resume.Path
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return nil, m.errorf("Resume.Path", path, "%s: %v", field.Name("Resume.Path"), err)
	}
	s, err := m.startSession(f)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return s, nil
}

func (m *measurement) startSession(f *os.File) (*session, error) {
	a, err := scanArchive(ndjson.NewReader(f, f.Name()), m.env.Names)
	if err != nil {
		return nil, m.archiveError(err)
	}
	if err := m.matches(a); err != nil {
		return nil, err
	}
	blocks := a.plan(m.Invocations, m.Resume.Retry)
	if len(blocks) == 0 {
		return nil, m.errorf("Resume.Path", f.Name(), "%s %q: run %s already has %d complete blocks; nothing to collect",
			field.Name("Resume.Path"), f.Name(), a.run.RunID, a.completeCount())
	}
	if a.end != nil {
		if err := m.dropLastLine(f, ndjson.TypeEnd); err != nil {
			return nil, err
		}
	}
	s := &session{f: f, w: ndjson.NewWriter(f), run: a.run, blocks: blocks, prior: a.kept, unit: a.nextUnit, seq: a.nextSeq}
	if b := a.abandoned(); b != nil {
		if err := s.w.Write(b); err != nil {
			return nil, err
		}
	}
	m.Samples = a.samples
	return s, nil
}

// archiveError classifies a problem reading the archive: a bad line or
// schema as any reader's, the rest (no run, not blocks) as the archive's.
func (m *measurement) archiveError(err error) error {
	var se *ndjson.SyntaxError
	var ve *ndjson.VersionError
	if errors.As(err, &se) || errors.As(err, &ve) {
		return &ArchiveError{Err: err}
	}
	return &ArchiveError{Err: m.errorf("Resume.Path", m.Resume.Path, "%s: %v", field.Name("Resume.Path"), err)}
}

// matches refuses an archive collected otherwise than this request asks:
// other cases, commands, mode, design, counts, seed or host.
func (m *measurement) matches(a *archived) error {
	r := a.run
	var format []string
	var args []any
	add := func(what any, was, now any) {
		if fmt.Sprint(was) != fmt.Sprint(now) {
			format, args = append(format, "%s %v (now %v)"), append(args, what, was, now)
		}
	}
	add("mode", r.Mode, m.Mode)
	add("cases", len(r.Cases), len(m.cases))
	for i := range min(len(r.Cases), len(m.cases)) {
		add(fmt.Sprintf("case %d", i), r.Cases[i].Name+" = "+r.Cases[i].Command, m.cases[i].Name+" = "+m.cases[i].Command)
	}
	add("design", r.Design, m.Design(len(m.cases)))
	add("batching", r.Batching, m.BatchingName())
	add(field.Name("SizeSpread"), max(r.Config.SizeSpread, 1), m.SizeSpread)
	add(field.Name("Invocations"), r.Config.Invocations, m.Invocations)
	add(field.Name("Seed"), r.Seed, m.Seed)
	add(field.Name("RandomizeLayout"), r.Config.Layout != nil && r.Config.Layout.Randomized, m.RandomizeLayout)
	if m.Samples != collect.AutoSamples {
		add(field.Name("Samples"), a.samples, m.Samples)
	}
	if len(format) > 0 {
		args = append([]any{field.Name("Resume.Path"), m.Resume.Path, r.RunID}, args...)
		return m.errorf("Resume.Path", m.Resume.Path, "%s %q: run %s was collected with "+strings.Join(format, ", ")+": repeat its command line", args...)
	}
	return m.fingerprintMatch(r, m.record)
}

// fingerprintMatch refuses a host, tool or timer other than the archive's.
func (m *measurement) fingerprintMatch(was, now ndjson.Run) error {
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
		err := m.errorf("Resume.Path", m.Resume.Path, "%s: the fingerprint differs from run %s's: %s", field.Name("Resume.Path"), was.RunID, strings.Join(diffs, ", "))
		return &FingerprintError{Err: err.WithHint("resume on the host, tool version and timer the run began with")}
	}
	return nil
}

// dropLastLine truncates f before its last line, which must be a record
// of type typ: the stream stays whole lines, one record shorter.
func (m *measurement) dropLastLine(f *os.File, typ string) error {
	data, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<62))
	if err != nil {
		return err
	}
	body := bytes.TrimSuffix(data, []byte("\n"))
	start := bytes.LastIndexByte(body, '\n') + 1
	if !bytes.Contains(body[start:], []byte(`"type":"`+typ+`"`)) {
		return fmt.Errorf("%s: the last line of %s is not its %s record", m.env.Names.Spell("Resume.Path"), f.Name(), typ)
	}
	return f.Truncate(int64(start))
}

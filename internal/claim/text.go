package claim

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// WriteText writes the status for people: one line per claim file.
func (st *Status) WriteText(w io.Writer) {
	if !st.Exists {
		fmt.Fprintf(w, "%s: no claim directory, nothing is claimed\n", st.Dir)
		return
	}
	scope := "machine-wide as far as can be seen"
	if st.Private {
		scope = "namespace-scoped: " + st.ScopeReason
	} else if st.ScopeReason != "" {
		scope = st.ScopeReason
	}
	files := "claim files"
	if len(st.Files) == 1 {
		files = "claim file"
	}
	fmt.Fprintf(w, "%s: %d %s, %s\n", st.Dir, len(st.Files), files, scope)
	if !st.LocksRead {
		fmt.Fprintf(w, "holders unknown: /proc/locks could not be read; content below may be stale\n")
	}
	for _, f := range st.Files {
		fmt.Fprintf(w, "%-8s %s\n", f.Name, f.line())
	}
}

// WriteJSON writes the status as one indented JSON document.
func (st *Status) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(st)
}

// line is the file's state, holders, waiters and content.
func (f FileStatus) line() string {
	if f.Problem != "" {
		return "unusable: " + f.Problem
	}
	var pids []string
	for _, h := range f.Holders {
		pids = append(pids, fmt.Sprint(h.PID))
	}
	s := f.State
	if len(pids) > 0 {
		s += " by pid " + strings.Join(pids, ", ")
	}
	if len(f.Waiters) > 0 {
		s += fmt.Sprintf(" (%d waiting)", len(f.Waiters))
	}
	switch {
	case f.Content.PID == 0:
	case f.Current:
		s += ": " + f.Content.Describe()
	default:
		s += "; last content: " + f.Content.Describe()
	}
	return s
}

// Record is the lock record of a request's outcome; required says the
// caller refuses anything but a machine-wide claim.
func (res Result) Record(req Request, required bool) *ndjson.Lock {
	rec := &ndjson.Lock{
		Tool: "fb-lock", Outcome: string(res.Outcome), Scope: ScopeMachine, CPUs: req.CPUs, Path: req.Dir,
		WaitedNS: res.Waited.Nanoseconds(), TimeoutNS: req.Timeout.Nanoseconds(), PollNS: req.Poll.Nanoseconds(),
		Holders: res.Holders, Reason: res.Reason, Required: required,
	}
	if len(req.CPUs) > 0 {
		rec.Scope = ScopeCPUs
	}
	return rec
}

// Degraded says what an outcome short of a held claim means for the
// program about to run.
func (res Result) Degraded() string {
	if res.Outcome == NamespaceScoped {
		return "the claim is namespace-scoped: " + res.Reason
	}
	return fmt.Sprintf("running PROGRAM without the claim (%s): %s", res.Outcome, res.Reason)
}

// Waiting is the line a waiting claim prints about once a second: how
// long it has waited for what, and who holds it.
func (req Request) Waiting(waited time.Duration, holders []string) string {
	what := "the machine-wide claim"
	if len(req.CPUs) > 0 {
		what = "the claim on CPUs " + FormatCPUs(req.CPUs)
	}
	by := "a holder that left no content"
	if len(holders) > 0 {
		by = strings.Join(holders, "; ")
	}
	return fmt.Sprintf("waiting %s of %s for %s in %q, held by %s",
		waited.Round(time.Second), req.Timeout, what, req.Dir, by)
}

package measure

import (
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/collect"
)

// TestCounterTargets: exec and batch cases are counted, worker and go
// test cases are refused with the reason, which names the mode as the
// user asked for it.
func TestCounterTargets(t *testing.T) {
	cases := []collect.Case{{Argv: []string{"prog", "{n}"}}}
	for mode, want := range map[Mode]string{ModeExec: "", ModeBatch: "", ModeWorker: "in <Mode=worker> mode", ModeGotest: "in <Mode=gotest> mode"} {
		m := &measurement{plan: &plan{Request: Request{Mode: mode}}, cases: cases, env: Env{Names: angled}}
		got := m.counterTargets()[0]
		if !strings.Contains(got.Refusal, want) || (want == "") != (got.Refusal == "") || got.Batch != (mode == ModeBatch) {
			t.Errorf("%s: %+v", mode, got)
		}
		if want == "" && len(got.Argv) != 2 {
			t.Errorf("%s: argv %v", mode, got.Argv)
		}
	}
}

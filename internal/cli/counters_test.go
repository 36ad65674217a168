package cli

import (
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/collect"
)

// TestCounterTargets: exec and batch cases are counted, worker and go
// test cases are refused with the reason.
func TestCounterTargets(t *testing.T) {
	cases := []collect.Case{{Argv: []string{"prog", "{n}"}}}
	for mode, want := range map[string]string{"exec": "", "batch": "", "worker": "--worker mode", "gotest": "--gotest mode"} {
		m := &measurement{measureRequest: &measureRequest{mode: mode}, cases: cases}
		got := m.counterTargets()[0]
		if !strings.Contains(got.Refusal, want) || (want == "") != (got.Refusal == "") || got.Batch != (mode == "batch") {
			t.Errorf("%s: %+v", mode, got)
		}
		if want == "" && len(got.Argv) != 2 {
			t.Errorf("%s: argv %v", mode, got.Argv)
		}
	}
}

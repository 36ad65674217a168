package words

import (
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// SuiteTitle is "suite: geometric mean of 3 benchmarks".
func SuiteTitle(s *ndjson.Suite) string {
	return "suite: geometric mean of " + model.Plural(len(s.Members), "benchmark")
}

// MemberChange is a member's speedup as a change of the contender's time.
func MemberChange(m ndjson.SuiteMember) float64 { return 100 * (1/m.Speedup - 1) }

// SuiteLevel is "95% CI".
func SuiteLevel(s *ndjson.Suite) string { return model.Confidence(s.ConfidencePct) + " CI" }

// SuiteVerdict words a suite's verdict for the contenders as a group.
func SuiteVerdict(v ndjson.Verdict) string {
	switch v {
	case ndjson.VerdictContenderFaster:
		return "contenders faster on the geometric mean   (contender faster)"
	case ndjson.VerdictReferenceFaster:
		return "references faster on the geometric mean   (reference faster)"
	}
	return string(v)
}

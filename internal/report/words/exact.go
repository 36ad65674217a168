package words

import (
	"strconv"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// IsExact reports whether a result is an exact comparison.
func IsExact(res *ndjson.AxisResult) bool { return res.Method == ndjson.AxisMethodExact }

// ExactChange is the difference with every digit, up to 12 significant
// ones (a count per operation of a batch is a quotient, and the
// subtraction of two leaves float64 noise): "+444046 instructions/op".
func ExactChange(res *ndjson.AxisResult, unit string) string {
	rounded, _ := strconv.ParseFloat(strconv.FormatFloat(res.Change, 'g', 12, 64), 64)
	text := strconv.FormatFloat(rounded, 'f', -1, 64)
	if res.Change > 0 {
		text = "+" + text
	}
	return model.JoinNonEmpty([]string{text, unit}, " ")
}

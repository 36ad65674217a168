package report

import (
	"slices"
	"strings"
)

// caseParams is case i's parameter values as "k=v;k=v", names sorted;
// empty when the case has none.
func (r *Run) caseParams(i int) string {
	if i < 0 || i >= len(r.Run.Cases) {
		return ""
	}
	params := r.Run.Cases[i].Params
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for j, k := range keys {
		parts[j] = k + "=" + params[k]
	}
	return strings.Join(parts, ";")
}

package watch

import (
	"github.com/flybench/flybench/internal/hostload"
)

// HostStat adapts a hostload.Reader (normally /proc/stat) to Stat.
type HostStat struct{ R hostload.Reader }

// Busy sums the busy time of the given CPUs (every CPU when nil).
func (h HostStat) Busy(cpus []int) (int64, error) {
	snap, err := h.R.Read()
	if err != nil {
		return 0, err
	}
	var sum int64
	if cpus == nil {
		for _, t := range snap.CPUs {
			sum += t.Busy()
		}
		return sum, nil
	}
	for _, c := range cpus {
		sum += snap.CPUs[c].Busy()
	}
	return sum, nil
}

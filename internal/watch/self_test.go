package watch

import (
	"errors"
	"testing"
	"time"
)

// failingChildren is a host whose reaped-children CPU time cannot be read.
type failingChildren struct{ *host }

func (failingChildren) Children() (int64, error) {
	return 0, errors.New("cpu clock of pid 42: no such process")
}

// A window whose own-CPU reading failed is not judged: a stand-in 0 would
// read this run's own work as foreign load.
func TestFailedSelfReadingIsNotJudged(t *testing.T) {
	h := newHost(2)
	h.ownPerSec, h.placedOn = 1, 1
	m := New(h, failingChildren{h}, h.clk, h.advance, 10, 2, nil)
	m.Begin()
	h.advance(100 * time.Millisecond)
	if est := m.End(); est.Judged || est.ForeignPct != 0 || est.OwnPct != 0 {
		t.Fatalf("judged on a failed reading: %+v", est)
	}
}

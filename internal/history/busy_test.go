package history

import (
	"errors"
	"fmt"
	"testing"
)

type codedErr int

func (e codedErr) Error() string { return fmt.Sprintf("code %d", int(e)) }
func (e codedErr) Code() int     { return int(e) }

// TestIsBusy: SQLITE_BUSY and its extended codes are retried at open,
// wrapped or not; other codes and plain errors are not.
func TestIsBusy(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{codedErr(5), true},
		{codedErr(261), true}, // SQLITE_BUSY_RECOVERY
		{fmt.Errorf("open: %w", codedErr(517)), true},
		{codedErr(6), false}, // SQLITE_LOCKED
		{errors.New("database is locked"), false},
	} {
		if got := isBusy(tc.err); got != tc.want {
			t.Errorf("isBusy(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

package platform

import (
	"errors"
	"testing"
)

func TestCheckOn(t *testing.T) {
	if err := CheckOn("/proc/stat", "linux"); err != nil {
		t.Fatalf("linux: %v", err)
	}
	for _, goos := range []string{"darwin", "freebsd"} {
		err := CheckOn("/proc/stat", goos)
		var pe *Error
		if !errors.As(err, &pe) || pe.Facility != "/proc/stat" || pe.GOOS != goos {
			t.Fatalf("%s: %#v", goos, err)
		}
		if want := "unsupported_platform: /proc/stat exists only on Linux (GOOS=" + goos + ")"; err.Error() != want {
			t.Errorf("%s: %q, want %q", goos, err, want)
		}
	}
	if (Check("x") == nil) != Linux(GOOS) {
		t.Fatalf("Check on %s: %v", GOOS, Check("x"))
	}
}

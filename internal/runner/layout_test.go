package runner

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/probes"
)

func TestLayoutEnvReplacesTheVariable(t *testing.T) {
	in := []string{"A=1", LayoutVar + "=xxx", "B=2"}
	got := LayoutEnv(in)
	if want := []string{"A=1", "B=2", LayoutVar + "="}; !slices.Equal(got, want) {
		t.Fatalf("LayoutEnv = %q, want %q", got, want)
	}
	if &LayoutEnv(in)[0] == &got[0] {
		t.Fatal("LayoutEnv returned a shared slice")
	}
}

// TestSetLayoutPadReachesTheChild checks that exec and batch runs see the
// variable at the length set, batch after batch, and that a command
// prepared without it has none and refuses a padding.
func TestSetLayoutPadReachesTheChild(t *testing.T) {
	for _, batch := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "pads")
		script := `echo "${#` + LayoutVar + `} ${` + LayoutVar + `+set}" >> ` + out
		c, err := New(Options{Argv: []string{"/bin/sh", "-c", script}, Batch: batch, Env: LayoutEnv(nil)})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		var want []string
		for _, n := range []int{0, 4095, 17, 17, 1} {
			if err := c.SetLayoutPad(n); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Run(2, probes.Monotonic{}); err != nil {
				t.Fatal(err)
			}
			runs := 2
			if batch {
				runs = 1
			}
			for range runs {
				want = append(want, itoa(int64(n))+" set")
			}
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Split(strings.TrimSpace(string(data)), "\n"); !slices.Equal(got, want) {
			t.Errorf("batch=%v: children saw %q, want %q", batch, got, want)
		}
	}
}

func TestNoLayoutVariableWithoutLayoutEnv(t *testing.T) {
	out := filepath.Join(t.TempDir(), "pads")
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, LayoutVar+"=") })
	c, err := New(Options{Argv: []string{"/bin/sh", "-c", `echo "${` + LayoutVar + `-unset}" > ` + out}, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.SetLayoutPad(3); err == nil || !strings.Contains(err.Error(), LayoutVar) {
		t.Fatalf("SetLayoutPad without the variable: err %v", err)
	}
	if _, err := c.Run(1, probes.Monotonic{}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(out); string(data) != "unset\n" {
		t.Fatalf("child saw %q, want unset", data)
	}
}

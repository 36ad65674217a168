package measure

import (
	"testing"
	"testing/fstest"
)

func TestKernelLayout(t *testing.T) {
	for _, tc := range []struct {
		va, personality string
		aslr, stack     string
		noRandomize     bool
	}{
		{"2\n", "00000000\n", "2", "yes", false},
		{"1\n", "00000000\n", "1", "yes", false},
		{"0\n", "00000000\n", "0", "no", false},
		{"2\n", "00040000\n", "2", "no", true}, // setarch -R
		{"2\n", "00440000\n", "2", "no", true}, // with another flag
		{"", "", "", "unknown", false},         // not Linux
	} {
		root := fstest.MapFS{}
		if tc.va != "" {
			root["proc/sys/kernel/randomize_va_space"] = &fstest.MapFile{Data: []byte(tc.va)}
			root["proc/self/personality"] = &fstest.MapFile{Data: []byte(tc.personality)}
		}
		aslr, noRandomize, stack := kernelLayout(root)
		if aslr != tc.aslr || noRandomize != tc.noRandomize || stack != tc.stack {
			t.Errorf("%q %q: got %q %v %q, want %q %v %q", tc.va, tc.personality, aslr, noRandomize, stack, tc.aslr, tc.noRandomize, tc.stack)
		}
	}
}

package console

import "testing"

func TestSparkline(t *testing.T) {
	tests := []struct{ got, want string }{
		{sparkline([]float64{0, 50, 100, 120}, 0, 100), "▁▄██"},
		{sparkline([]float64{7, 7, 7}, 7, 7), "▁▁▁"},
		{sparkline(nil, 0, 100), ""},
	}
	for i, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("case %d: got %q, want %q", i, tc.got, tc.want)
		}
	}
}

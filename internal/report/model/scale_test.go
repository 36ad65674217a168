package model

import "testing"

func TestAxisUnits(t *testing.T) {
	tests := []struct{ got, want string }{
		{AxisValue(1_932_000, "ns/op"), "1.932 ms/op"},
		{AxisValue(12_897_484, "bytes"), "12.30 MiB"},
		{AxisValue(4096, "bytes/op"), "4.000 KiB/op"},
		{AxisValue(0, "bytes/op"), "0.000 B/op"},
		{AxisValue(1216, "faults/op"), "1216 faults/op"},
		{AxisValue(18_557.6, "misses/op"), "18.56k misses/op"},
		{AxisValue(2_500_000_000, "cycles/op"), "2.500G cycles/op"},
		{AxisValue(1.2346, "instructions/cycle"), "1.235 instructions/cycle"},
		{SignedAxis(-0.0139, "faults/op"), "-0.01390 faults/op"},
		{SignedAxis(1200, "ns/op"), "+1.200 µs/op"},
		{AxisRange(950_000, 1_020_000, "ns/op", false), "0.9500 .. 1.020 ms/op"},
		{AxisRange(-0.0208, 0.0417, "faults/op", true), "-0.02080 .. +0.04170 faults/op"},
		{Memory(12_897_484), "12.3 MiB"},
		{Memory(512), "512.0 B"},
		{UnavailableText("unsupported_event", "old: unsupported event: no PMU"), "unavailable: unsupported event (old: no PMU)"},
		{UnavailableText("probe_failed", ""), "unavailable: probe failed"},
	}
	for i, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("case %d: got %q, want %q", i, tc.got, tc.want)
		}
	}
}

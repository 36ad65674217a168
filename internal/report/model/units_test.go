package model

import (
	"math"
	"testing"
)

func TestDurations(t *testing.T) {
	tests := []struct {
		ns   float64
		want string
	}{
		{2_153_000, "2.153 ms"},
		{41_200, "41.20 µs"},
		{-164_300, "-164.3 µs"},
		{999.96, "1.000 µs"},
		{999.94, "999.9 ns"},
		{1.498, "1.498 ns"},
		{0.0025, "2.500 ps"},
		{0.00001, "0.01000 ps"},
		{0, "0.000 ns"},
		{25_130_000, "25.13 ms"},
		{1.5e12, "1500 s"},
		{math.NaN(), "n/a"},
	}
	for _, tc := range tests {
		if got := Dur(tc.ns); got != tc.want {
			t.Errorf("dur(%v) = %q, want %q", tc.ns, got, tc.want)
		}
	}
}

func TestFormatHelpers(t *testing.T) {
	tests := []struct{ got, want string }{
		{DurRange(2_170_000, 2_236_000), "2.170 .. 2.236 ms"},
		{DurRange(950_000, 1_020_000), "950.0 µs .. 1.020 ms"},
		{SignedDur(42_500), "+42.50 µs"},
		{Fixed3(1), "1.000 ns"},
		{Fixed3(1.0 / 3), "0.333 ns"},
		{Fixed3(42.0 / 16777216), "0.003 ps"},
		{Fixed3(0), "0.000 ns"},
		{Fixed3(1500), "1.500 µs"},
		{HMS(323_000_000), "00:00:00.3"},
		{HMS(3723_450_000_000), "01:02:03.5"},
		{HMS(0), "00:00:00.0"},
		{Pct(-7.6), "-7.6%"},
		{Pct(0.4), "+0.4%"},
		{SpeedupRange([2]float64{1.061, 1.103}), "1.061x .. 1.103x"},
		{Confidence(99.5), "99.5%"},
		{Plain(2.5e-6), "0.0000025"},
		{Plain(1e21), "1000000000000000000000"},
		{ShortID("1b9f3c2a-4d5e"), "1b9f3c2a"},
	}
	for i, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("case %d: got %q, want %q", i, tc.got, tc.want)
		}
	}
}

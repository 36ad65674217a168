package stats

import "testing"

func TestBonferroniConfidence(t *testing.T) {
	for _, c := range []struct {
		family float64
		m      int
		want   float64
		ok     bool
	}{
		{95, 0, 95, true},
		{95, 1, 95, true},
		{95, 3, 98.333333333, true},
		{95, 15, 99.666666667, true},
		{90, 4, 97.5, true},
		{95, 100, MaxComparisonConfidence, false},
	} {
		got, ok := BonferroniConfidence(c.family, c.m)
		if got != c.want || ok != c.ok {
			t.Errorf("BonferroniConfidence(%g, %d) = %v, %v; want %v, %v", c.family, c.m, got, ok, c.want, c.ok)
		}
	}
}

func TestFamilyConfidence(t *testing.T) {
	for _, c := range []struct {
		level float64
		m     int
		want  float64
	}{{95, 1, 95}, {99.9, 100, 90}, {95, 3, 85}, {90, 20, 0}} {
		if got := FamilyConfidence(c.level, c.m); got != c.want {
			t.Errorf("FamilyConfidence(%g, %d) = %v, want %v", c.level, c.m, got, c.want)
		}
	}
}

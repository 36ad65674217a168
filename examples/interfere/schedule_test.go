package main

import (
	"reflect"
	"testing"
	"time"
)

func TestScheduleDeterministic(t *testing.T) {
	a := Schedule(42, 5*time.Minute, 4)
	b := Schedule(42, 5*time.Minute, 4)
	if len(a) == 0 || !reflect.DeepEqual(a, b) {
		t.Fatalf("seed 42 gave two schedules (%d and %d bursts)", len(a), len(b))
	}
	if c := Schedule(43, 5*time.Minute, 4); reflect.DeepEqual(a, c) {
		t.Fatal("seeds 42 and 43 gave the same schedule")
	}
	// A shorter schedule begins the longer one: the seed, not the length,
	// decides each burst; only the last may be cut short.
	short := Schedule(42, time.Minute, 4)
	last := len(short) - 1
	if !reflect.DeepEqual(short[:last], a[:last]) || short[last].Offset != a[last].Offset {
		t.Fatal("the one-minute schedule does not begin the five-minute one")
	}
}

func TestScheduleBounds(t *testing.T) {
	const total, cpus = 10 * time.Minute, 3
	end := time.Duration(0)
	for i, b := range Schedule(7, total, cpus) {
		gap := b.Offset - end
		cut := b.Offset+b.Duration == total // the last burst, cut short at total
		switch {
		case gap < MinGap || gap > MaxGap:
			t.Errorf("burst %d: gap %v before it, want %v to %v", i, gap, MinGap, MaxGap)
		case (b.Duration < MinBurst && !cut) || b.Duration <= 0 || b.Duration > MaxBurst:
			t.Errorf("burst %d: duration %v, want %v to %v", i, b.Duration, MinBurst, MaxBurst)
		case b.Offset+b.Duration > total:
			t.Errorf("burst %d ends at %v, after %v", i, b.Offset+b.Duration, total)
		}
		checkThreads(t, i, b, cpus)
		end = b.Offset + b.Duration
	}
}

// checkThreads checks a burst's scope, CPU, thread count and chunk size.
func checkThreads(t *testing.T, i int, b Burst, cpus int) {
	t.Helper()
	want := map[string]int{ScopeOne: 1, ScopeAll: cpus}[b.Scope]
	switch {
	case b.Scope == ScopeOne && (b.CPU < 0 || b.CPU >= cpus):
		t.Errorf("burst %d: one-cpu on CPU %d of %d", i, b.CPU, cpus)
	case b.Scope == ScopeAll && b.CPU != -1:
		t.Errorf("burst %d: all-cpus with CPU %d, want -1", i, b.CPU)
	case b.Kind == KindOversub && (b.Threads < MinOversubX*cpus || b.Threads > MaxOversubX*cpus):
		t.Errorf("burst %d: oversub with %d threads on %d CPUs", i, b.Threads, cpus)
	case b.Kind != KindOversub && b.Threads != want:
		t.Errorf("burst %d: %s %s with %d threads, want %d", i, b.Kind, b.Scope, b.Threads, want)
	case b.Kind == KindIO && (b.Chunk < MinChunk || b.Chunk > MaxChunk):
		t.Errorf("burst %d: io chunk %d bytes", i, b.Chunk)
	case b.Kind != KindIO && b.Chunk != 0:
		t.Errorf("burst %d: %s with an io chunk", i, b.Kind)
	}
}

func TestScheduleCoversEveryKindAndScope(t *testing.T) {
	seen := map[[2]string]int{}
	for _, b := range Schedule(1, 30*time.Minute, 2) {
		seen[[2]string{b.Kind, b.Scope}]++
	}
	for _, k := range Kinds {
		for _, s := range []string{ScopeOne, ScopeAll} {
			if seen[[2]string{k, s}] == 0 {
				t.Errorf("no %s burst with scope %s in 30 minutes", k, s)
			}
		}
	}
}

func TestScheduleCutAtTotal(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		s := Schedule(seed, 4*time.Second, 2)
		if n := len(s); n > 0 && s[n-1].Offset+s[n-1].Duration > 4*time.Second {
			t.Fatalf("seed %d: the last burst ends at %v", seed, s[n-1].Offset+s[n-1].Duration)
		}
	}
}

func TestScheduleShorterThanAGap(t *testing.T) {
	if s := Schedule(1, 100*time.Millisecond, 2); len(s) != 0 {
		t.Fatalf("100 ms schedule has %d bursts, want none", len(s))
	}
}

package axes

import "testing"

func TestSplitCounters(t *testing.T) {
	rest, counters := SplitCounters("time, instructions_sim,cpu")
	if rest != "time,cpu" || len(counters) != 1 || counters[0].Name != InstructionsSim || !IsCounter(counters[0].Family) {
		t.Fatalf("got %q, %+v", rest, counters)
	}
	if _, err := Select(rest); err != nil {
		t.Fatal(err)
	}
	// no named set selects a counter: each costs untimed runs under a simulator
	if _, counters := SplitCounters("all"); counters != nil {
		t.Fatalf("all selected %+v", counters)
	}
	if _, err := Select(InstructionsSim); err == nil {
		t.Fatal("a counter axis is not a sampled axis")
	}
}

package ndjson

import "testing"

func TestExecCPUTimerFloorDoesNotShrinkWithTheBatch(t *testing.T) {
	run := Run{Mode: "exec", Clock: Clock{NominalNS: 1}, Timer: &Timer{Kind: TimerCPU, ResolutionNS: 1000}}
	if got := run.TimerFloorNS(50); got != 1000 {
		t.Errorf("exec CPU timer floor %g, want 1000: every run's rusage is truncated on its own", got)
	}
	run.Mode = "batch"
	if got := run.TimerFloorNS(50); got != 20 {
		t.Errorf("batch CPU timer floor %g, want 1000/50", got)
	}
	run.Timer = nil
	if got := run.TimerFloorNS(50); got != 1.0/50 {
		t.Errorf("wall floor %g, want the clock's 1 ns over 50", got)
	}
}

func TestKindOfAbsentTimerIsWall(t *testing.T) {
	var none *Timer
	if none.KindOf() != TimerWall || (&Timer{}).KindOf() != TimerWall || (&Timer{Kind: TimerCPU}).KindOf() != TimerCPU {
		t.Error("an absent or empty timer is wall time; a recorded kind is itself")
	}
}

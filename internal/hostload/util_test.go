package hostload

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// stat renders a /proc/stat text from per-CPU "user system idle iowait"
// tick counts; the aggregate line is their sum.
func stat(cpus map[int][4]int64) string {
	var sum [4]int64
	var lines []string
	for id := 0; id < 64; id++ {
		c, ok := cpus[id]
		if !ok {
			continue
		}
		for i := range sum {
			sum[i] += c[i]
		}
		lines = append(lines, fmt.Sprintf("cpu%d %d 0 %d %d %d 0 0 0 0 0", id, c[0], c[1], c[2], c[3]))
	}
	head := fmt.Sprintf("cpu  %d 0 %d %d %d 0 0 0 0 0", sum[0], sum[1], sum[2], sum[3])
	return head + "\n" + strings.Join(lines, "\n") + "\nintr 0\n"
}

func TestUtilizationAverageAndBusiest(t *testing.T) {
	a := mustRead(t, stat(map[int][4]int64{0: {100, 0, 900, 0}, 1: {100, 0, 900, 0}}))
	// cpu0: 10 ticks, all busy; cpu1: 2 busy (1 user, 1 system), 7 idle, 1 iowait.
	b := mustRead(t, stat(map[int][4]int64{0: {110, 0, 900, 0}, 1: {101, 1, 907, 1}}))
	u := Utilization(a, b)
	if u.BusiestCPU != 0 || u.BusiestPct != 100 || u.CPUPct[1] != 20 || u.AveragePct != 60 {
		t.Fatalf("%+v", u)
	}
	if u.ElapsedTicks != 10 || len(u.Skipped) != 0 {
		t.Fatalf("%+v", u)
	}
	busy, capacity := BusyNS(a, b, nil)
	if busy != 12*TickNS || capacity != 20*TickNS {
		t.Fatalf("busy %d capacity %d", busy, capacity)
	}
	busy, capacity = BusyNS(a, b, []int{1})
	if busy != 2*TickNS || capacity != 10*TickNS {
		t.Fatalf("cpu1: busy %d capacity %d", busy, capacity)
	}
}

// One saturated CPU among sixteen moves the average by only 1/16.
func TestUtilizationSixteenCPUsOneBusy(t *testing.T) {
	before, after := map[int][4]int64{}, map[int][4]int64{}
	for id := 0; id < 16; id++ {
		before[id] = [4]int64{50, 50, 1000, 0}
		after[id] = [4]int64{50, 50, 1010, 0}
	}
	after[7] = [4]int64{58, 52, 1000, 0}
	u := Utilization(mustRead(t, stat(before)), mustRead(t, stat(after)))
	if u.BusiestCPU != 7 || u.BusiestPct != 100 || u.AveragePct != 6.25 || len(u.CPUPct) != 16 {
		t.Fatalf("%+v", u)
	}
}

func TestUtilizationTiesPickTheLowestID(t *testing.T) {
	a := mustRead(t, stat(map[int][4]int64{2: {0, 0, 0, 0}, 5: {0, 0, 0, 0}}))
	b := mustRead(t, stat(map[int][4]int64{2: {5, 0, 5, 0}, 5: {5, 0, 5, 0}}))
	for i := 0; i < 20; i++ { // map order must not matter
		if u := Utilization(a, b); u.BusiestCPU != 2 {
			t.Fatalf("%+v", u)
		}
	}
}

// Hotplug: a CPU that came or went between snapshots has no delta; the
// others are still measured and the skipped ones are named.
func TestUtilizationHotplug(t *testing.T) {
	a := mustRead(t, stat(map[int][4]int64{0: {0, 0, 100, 0}, 1: {0, 0, 100, 0}}))
	b := mustRead(t, stat(map[int][4]int64{0: {5, 0, 105, 0}, 2: {0, 0, 3, 0}}))
	u := Utilization(a, b)
	want := []Skip{{1, Disappeared}, {2, Appeared}}
	if !reflect.DeepEqual(u.Skipped, want) || u.AveragePct != 50 || len(u.CPUPct) != 1 {
		t.Fatalf("%+v", u)
	}
	busy, capacity := BusyNS(a, b, []int{0, 1, 2, 3})
	if busy != 5*TickNS || capacity != 10*TickNS {
		t.Fatalf("busy %d capacity %d", busy, capacity)
	}
}

func TestUtilizationCountersGoingBackwards(t *testing.T) {
	a := mustRead(t, stat(map[int][4]int64{0: {50, 0, 100, 0}, 1: {50, 0, 100, 0}}))
	b := mustRead(t, stat(map[int][4]int64{0: {40, 0, 120, 0}, 1: {50, 0, 110, 0}}))
	u := Utilization(a, b)
	if !reflect.DeepEqual(u.Skipped, []Skip{{0, Backwards}}) || u.BusiestCPU != 1 || u.AveragePct != 0 {
		t.Fatalf("%+v", u)
	}
}

// The kernel may reclassify iowait as idle between reads; while their sum
// grows, that is not counters going backwards.
func TestIOWaitMovingToIdleIsNotBackwards(t *testing.T) {
	a := mustRead(t, stat(map[int][4]int64{0: {0, 0, 100, 10}}))
	b := mustRead(t, stat(map[int][4]int64{0: {2, 0, 115, 3}}))
	u := Utilization(a, b)
	if len(u.Skipped) != 0 || u.CPUPct[0] != 20 {
		t.Fatalf("%+v", u)
	}
}

func TestUtilizationWithinOneTick(t *testing.T) {
	a := mustRead(t, stat(map[int][4]int64{0: {1, 0, 1, 0}}))
	u := Utilization(a, a)
	if u.ElapsedTicks != 0 || u.BusiestCPU != -1 || len(u.CPUPct) != 0 || u.AveragePct != 0 {
		t.Fatalf("%+v", u)
	}
}

func BenchmarkProcStatRead(b *testing.B) {
	r := ProcStat{}
	if _, err := r.Read(); err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		if _, err := r.Read(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUtilization(b *testing.B) {
	before, after := map[int][4]int64{}, map[int][4]int64{}
	for id := 0; id < 64; id++ {
		before[id], after[id] = [4]int64{1, 1, 1, 1}, [4]int64{2, 2, 2, 2}
	}
	s1, _ := Read(strings.NewReader(stat(before)))
	s2, _ := Read(strings.NewReader(stat(after)))
	for b.Loop() {
		Utilization(s1, s2)
	}
}

func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile("testdata/two-cpus.stat")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

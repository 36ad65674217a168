package record

import (
	"bufio"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// stepClock advances by step at every reading.
type stepClock struct{ t, step int64 }

func (c *stepClock) Now() int64 { c.t += c.step; return c.t }

func newTestRecording(p Policy) *Recording {
	return New(p, &stepClock{step: 100})
}

var keepAll = Policy{Name: ndjson.RetainFirst, Capacity: 100}

func serve(r *Recording, text string, fifo bool) (skipped []error, err error) {
	err = r.serveText("test", bufio.NewReaderSize(strings.NewReader(text), readBuffer), fifo, func(e error) { skipped = append(skipped, e) })
	return skipped, err
}

func tally(t *testing.T, r *Recording, name string) ndjson.BenchmarkTally {
	t.Helper()
	for _, b := range r.Benches() {
		if b.Name == name {
			return b.Tally()
		}
	}
	t.Fatalf("no benchmark %q", name)
	return ndjson.BenchmarkTally{}
}

func TestTextConnectionRecordsSpans(t *testing.T) {
	r := newTestRecording(keepAll)
	_, err := serve(r, "flybench-span 1\nbenchmark idle\nspan db 5000 success\nbegin 1 db\nbegin 2 http\nend 1 failure\nspan db 7 timeout\nbegin 3 db\n", false)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, b := range r.Benches() {
		names = append(names, b.Name)
	}
	if strings.Join(names, ",") != "idle,db,http" {
		t.Fatalf("benchmarks in declaration order: %v", names)
	}
	db := tally(t, r, "db")
	if db.Observed != 3 || db.Retained != 3 || db.Unfinished != 1 || db.Outcomes["failure"] != 1 || db.Outcomes["timeout"] != 1 {
		t.Fatalf("db tally %+v", db)
	}
	if h := tally(t, r, "http"); h.Observed != 0 || h.Unfinished != 1 {
		t.Fatalf("http tally %+v", h)
	}
	rows := r.Benches()[1].Rows()
	// The clock steps 100 per reading and the recording started at the
	// first: the span line is received at 100, begin 1 at 200, end 1 at
	// 400 (begin 2 read 300), span 7 at 500.
	want := []Row{{Obs: 1, StartNS: 100 - 5000, WallNS: 5000}, {Obs: 2, StartNS: 200, WallNS: 200, Outcome: Failure}, {Obs: 3, StartNS: 493, WallNS: 7, Outcome: Timeout}}
	for i, w := range want {
		if g := rows[i]; g.Obs != w.Obs || g.StartNS != w.StartNS || g.WallNS != w.WallNS || g.Outcome != w.Outcome {
			t.Errorf("row %d: got %+v, want %+v", i, g, w)
		}
	}
	for _, b := range r.Benches() {
		if b.live.Load() != 0 {
			t.Errorf("%s: %d live after the connection ended", b.Name, b.live.Load())
		}
	}
}

func TestTextConnectionFaultsNameTheLine(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"span a 1 success\n", `test:1: the first line must be "flybench-span 1"`},
		{"flybench-span 1\nflybench-span 1\n", "test:2: the header is repeated"},
		{"flybench-span 1\nbegin 1 a\nbegin 1 a\n", `test:3: span id "1" is already open`},
		{"flybench-span 1\nend 9 success\n", `test:2: span id "9" is not open`},
		{"flybench-span 1\nspan a 1 success", "test:2: the last line has no newline"},
		{"flybench-span 1\nspan a " + strings.Repeat("1", 300) + " success\n", "test:2: line longer than 256 bytes"},
		{"flybench-span 1\nspan a 1 fine\n", `test:2: outcome "fine"`},
	} {
		r := newTestRecording(keepAll)
		_, err := serve(r, tc.text, false)
		var ce *ConnError
		if !errors.As(err, &ce) || err.Error()[:len(tc.want)] != tc.want {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
		if r.ProtocolErrors() != 1 {
			t.Errorf("%q: %d protocol errors counted", tc.text, r.ProtocolErrors())
		}
	}
}

// A FIFO is shared by writers that come and go: the header is optional
// and may repeat, and a bad line is skipped, not fatal.
func TestFIFOSkipsBadLines(t *testing.T) {
	r := newTestRecording(keepAll)
	long := "span a " + strings.Repeat("1", readBuffer+10) + " success\n"
	skipped, err := serve(r, "span a 1 success\nflybench-span 1\nbogus\n"+long+"flybench-span 1\nspan a 2 success\n", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 2 || !strings.Contains(skipped[0].Error(), "test:3:") || !strings.Contains(skipped[1].Error(), "longer than") {
		t.Fatalf("skipped %v", skipped)
	}
	if a := tally(t, r, "a"); a.Observed != 2 {
		t.Fatalf("tally %+v", a)
	}
}

func TestTooManyBenchmarks(t *testing.T) {
	r := newTestRecording(keepAll)
	var b strings.Builder
	b.WriteString(Header + "\n")
	for i := 0; i <= MaxBenchmarks; i++ {
		b.WriteString("benchmark b" + strconv.Itoa(i) + "\n")
	}
	_, err := serve(r, b.String(), false)
	if err == nil || !strings.Contains(err.Error(), "at most 256") || len(r.Benches()) != MaxBenchmarks {
		t.Fatalf("error %v with %d benchmarks", err, len(r.Benches()))
	}
}

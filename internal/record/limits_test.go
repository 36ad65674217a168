package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// The floods of flybench issue 21, item 5, scaled down with small limits:
// every test is bounded in bytes and time and uses a Unix socket only.

// listenWith starts a socket server for a recording with limits l.
func listenWith(t *testing.T, l Limits) (*Recording, *Server, *warnings) {
	t.Helper()
	rec := New(keepAll, probes.Monotonic{})
	rec.limits = l
	w := &warnings{}
	srv, err := ListenSocket(rec, filepath.Join(t.TempDir(), "s.sock"), w.add)
	if err != nil {
		t.Fatal(err)
	}
	return rec, srv, w
}

func smallLimits() Limits {
	l := DefaultLimits
	l.Line, l.Pending = 64<<10, 256<<10
	return l
}

func contains(lines []string, sub string) bool {
	for _, l := range lines {
		if strings.Contains(l, sub) {
			return true
		}
	}
	return false
}

// A recorder-stream line longer than the limit ends that connection's
// recording while the client is still sending: fb-record never holds it
// whole (it held up to 16 MiB per connection, 1,024 connections).
func TestLongRecorderLineRefusedWhileSent(t *testing.T) {
	rec, srv, w := listenWith(t, smallLimits())
	c := dial(t, srv.Path())
	defer c.Close()
	c.Write([]byte(`{"type":"recording","v":"1.7","pad":"`))
	c.Write(bytes.Repeat([]byte("a"), 1<<20))
	waitUntil(t, func() bool { return contains(w.all(), "a line longer than 64 KiB") })
	srv.Close(50 * time.Millisecond)
	if rec.ProtocolErrors() != 1 {
		t.Fatalf("%d protocol errors, warnings %q", rec.ProtocolErrors(), w.all())
	}
}

// Unfinished lines of all connections together stay within the budget:
// a connection that would go over it is shed, and counted.
func TestLineBudgetShedsConnections(t *testing.T) {
	rec, srv, w := listenWith(t, smallLimits())
	for range 6 {
		c := dial(t, srv.Path())
		defer c.Close()
		c.Write([]byte(`{"type":"recording","v":"1.7","pad":"` + strings.Repeat("a", 60<<10)))
	}
	waitUntil(t, func() bool { return rec.ShedConnections() >= 2 })
	if p := rec.pending.Load(); p > smallLimits().Pending {
		t.Fatalf("%d bytes of unfinished lines held, budget %d", p, smallLimits().Pending)
	}
	srv.Close(50 * time.Millisecond)
	if !contains(w.all(), "unfinished lines from all connections") {
		t.Fatalf("warnings %q", w.all())
	}
	if p := rec.pending.Load(); p != 0 {
		t.Fatalf("%d bytes still charged after every connection ended", p)
	}
}

// A recorder stream's span keeps only the axes its recording record
// declared, each reason clipped; the rest are dropped and counted.
func TestUndeclaredAxesDropped(t *testing.T) {
	r := newTestRecording(keepAll)
	var axes strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&axes, `,"x%d":{"s":"collected","v":%d}`, i, i)
	}
	long := strings.Repeat("r", 5000)
	stream := `{"type":"recording","v":"1.7","run_id":"x","benchmarks":[{"index":0,"name":"db"}],"axes":[{"name":"wall","unit":"ns","status":"collected"},{"name":"thread_cpu","unit":"ns","status":"collected","reason":"` + long + `"}]}
{"type":"span","v":"1.7","run_id":"x","b":0,"obs":1,"outcome":"success","start_ns":50,"wall_ns":40,"axes":{"thread_cpu":{"s":"migrated","r":"` + long + `"}` + axes.String() + `}}
`
	if err := r.serveConn("rec", strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	row := r.Benches()[0].Rows()[0]
	if len(row.Axes) != 1 || row.Axes["thread_cpu"].S != "migrated" || len(row.Axes["thread_cpu"].R) > MaxText {
		t.Fatalf("kept axes: %d, thread_cpu reason of %d bytes", len(row.Axes), len(row.Axes["thread_cpu"].R))
	}
	if r.DroppedAxes() != 1000 {
		t.Fatalf("%d axes counted as dropped", r.DroppedAxes())
	}
	if a := r.Axes(); len(a) != 1 || len(a[0].Reason) > MaxText {
		t.Fatalf("recording axes %+v", a)
	}
}

// Connections beyond the limit are refused and counted in the stream.
func TestRefusedConnectionsCounted(t *testing.T) {
	l := DefaultLimits
	l.Conns = 2
	rec, srv, _ := listenWith(t, l)
	for range 5 {
		c := dial(t, srv.Path())
		defer c.Close()
		c.Write([]byte(Header + "\nspan a 5 success\n"))
	}
	waitUntil(t, func() bool { return rec.RefusedConnections() == 3 && observed(rec) == 2 })
	srv.Close(50 * time.Millisecond)
	end := writtenEnd(t, rec)
	if end["refused_connections"] != float64(3) {
		t.Fatalf("recording_end %v", end)
	}
}

// writtenEnd writes rec and returns its recording_end record's fields.
func writtenEnd(t *testing.T, rec *Recording) map[string]any {
	t.Helper()
	var buf bytes.Buffer
	if err := rec.Write(ndjson.NewWriter(&buf), Meta{RunID: "id"}, nil, ReasonDuration); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var end map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &end); err != nil || end["type"] != "recording_end" {
		t.Fatalf("last line %s: %v", lines[len(lines)-1], err)
	}
	return end
}

// Spans that arrive on a connection after its first bad line are counted
// as discarded, in the stream, instead of vanishing.
func TestSpansAfterAFaultCounted(t *testing.T) {
	r := newTestRecording(keepAll)
	_, err := serve(r, Header+"\nbegin 1 a\nspan a 5 success\nspan a five success\nspan a 6 success\nbegin 2 a\nend 2 success\nend 1 failure\nnonsense\n", false)
	if err == nil {
		t.Fatal("no fault")
	}
	if tl := tally(t, r, "a"); tl.Observed != 1 || tl.Unfinished != 0 || r.DiscardedSpans() != 3 {
		t.Fatalf("tally %+v, %d discarded", tl, r.DiscardedSpans())
	}
	rs := `{"type":"recording","v":"1.7","benchmarks":[{"index":0,"name":"b"}]}
{"type":"span","v":"1.7","b":0,"outcome":"success","wall_ns":1}
{"type":"span","v":"1.7","b":0,"outcome":"meh","wall_ns":1}
{"type":"span","v":"1.7","b":0,"outcome":"success","wall_ns":1}
not json
{"type":"span","v":"1.7","b":0,"outcome":"success","wall_ns":1}
{"type":"span","v":"1.7","b":0,"outcome":"success","wall_ns":1,"pad":"` + strings.Repeat("a", 2<<20) + `"}
{"type":"span","v":"1.7","b":0,"outcome":"success","wall_ns":1}
`
	if err := r.serveConn("rec", strings.NewReader(rs)); err == nil {
		t.Fatal("no fault")
	}
	if tl := tally(t, r, "b"); tl.Observed != 1 || r.DiscardedSpans() != 7 {
		t.Fatalf("tally %+v, %d discarded", tl, r.DiscardedSpans())
	}
	if end := writtenEnd(t, r); end["discarded_spans"] != float64(7) {
		t.Fatalf("recording_end %v", end)
	}
}

// Many bad connections give a few warnings and one line that counts the
// rest, not a line each.
func TestConnectionWarningsSummarized(t *testing.T) {
	l := DefaultLimits
	l.Warnings = 3
	rec, srv, w := listenWith(t, l)
	for range 10 {
		c := dial(t, srv.Path())
		c.Write([]byte(Header + "\nnonsense\n"))
		c.Close()
	}
	waitUntil(t, func() bool { return rec.ProtocolErrors() == 10 })
	srv.Close(50 * time.Millisecond)
	got := w.all()
	if len(got) != 5 || !strings.Contains(got[3], "further connection warnings are counted, not shown") ||
		!strings.Contains(got[4], "7 more connection warnings") {
		t.Fatalf("warnings %q", got)
	}
}

// Spans begun and not ended are bounded across connections, not only on
// each.
func TestOpenSpansBoundedAcrossConnections(t *testing.T) {
	r := newTestRecording(keepAll)
	r.limits.Open = 4
	if _, err := serve(r, Header+"\nbegin 1 a\nbegin 2 a\nbegin 3 a\nspan a 5 success\n", false); err != nil {
		t.Fatal(err)
	}
	r.open.Add(3) // the first connection's spans, as if it were still open
	_, err := serve(r, Header+"\nbegin 1 a\nbegin 2 a\n", false)
	if err == nil || !strings.Contains(err.Error(), "test:3: more than 4 spans open on all connections") {
		t.Fatalf("second connection: %v", err)
	}
}

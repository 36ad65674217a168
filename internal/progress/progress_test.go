package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/pkg/ndjson"
)

func TestTTYRedrawsInPlaceWithFixedCaseField(t *testing.T) {
	var buf bytes.Buffer
	d := New(&buf, TTY, "fb-pair")
	now := time.Unix(0, 0)
	d.now = func() time.Time { return now }
	d.Update(collect.Status{Phase: "sampling", Case: "old", Done: 3, Total: 50, Elapsed: 3 * time.Second, ETA: 47 * time.Second})
	now = now.Add(10 * time.Millisecond)
	d.Update(collect.Status{Phase: "sampling", Case: "new", Done: 3, Total: 50}) // rate-limited
	now = now.Add(200 * time.Millisecond)
	d.Update(collect.Status{Phase: "sampling", Case: "a-very-long-case-name-indeed", Done: 4, Total: 50, Elapsed: 3725 * time.Second})
	d.Close()
	out := buf.String()
	frames := strings.Split(strings.TrimSuffix(out, "\n"), "\r\x1b[2K")[1:]
	if len(frames) != 2 {
		t.Fatalf("want 2 in-place frames, got %q", out)
	}
	if frames[0] != "fb-pair  sampling     old                3/50  00:00:03  ETA 00:00:47" {
		t.Fatalf("frame %q", frames[0])
	}
	if !strings.Contains(frames[1], "a-very-long-cas…   4/50  01:02:05") {
		t.Fatalf("frame %q: case field must be cut to a fixed width", frames[1])
	}
	// A note is a line of its own, above the redrawn one.
	var noted bytes.Buffer
	d = New(&noted, TTY, "fb-pair")
	d.Update(collect.Status{Phase: "calibrating", Case: "x"})
	d.Update(collect.Status{Phase: "sampling", Case: "x", Total: 50, ETA: time.Minute, Note: "it takes long"})
	d.Close()
	if want := "\r\x1b[2Kfb-pair  calibrating  x                 00:00:00\r\x1b[2Kfb-pair: note: it takes long\n\r\x1b[2Kfb-pair  sampling     x                  0/50  00:00:00  ETA 00:01:00\n"; noted.String() != want {
		t.Fatalf("note on a terminal:\n%q\nwant\n%q", noted.String(), want)
	}
	var tele bytes.Buffer
	d = New(&tele, TTY, "fb-pair")
	d.Update(collect.Status{Phase: "sampling", Case: "x", Done: 1, Total: 2, Tele: &ndjson.Telemetry{CPUPct: 98, RSSBytes: 3 << 20}})
	if !strings.HasSuffix(tele.String(), "  cpu 98% (0.98 cores)  rss 3.0 MiB") {
		t.Fatalf("telemetry not shown: %q", tele.String())
	}
	if !strings.HasSuffix(out, "\n") {
		t.Fatal("Close must end the line")
	}
}

func TestPlainPrintsPhaseChangesOnly(t *testing.T) {
	var buf bytes.Buffer
	d := New(&buf, Plain, "fb-sample")
	for i := 0; i < 5; i++ {
		d.Update(collect.Status{Phase: "warming", Case: "x"})
	}
	d.Update(collect.Status{Phase: "sampling", Total: 50, ETA: 9 * time.Second, Note: "it takes long"})
	d.Update(collect.Status{Phase: "sampling", Done: 10, Total: 50, Note: "not again"})
	d.Update(collect.Status{Phase: "finished", Done: 50, Total: 50, Elapsed: 2 * time.Second})
	d.Close()
	want := "fb-sample: warming\nfb-sample: sampling 50 units, about 00:00:09\nfb-sample: note: it takes long\nfb-sample: finished 50 units, 50 done in 00:00:02\n"
	if buf.String() != want {
		t.Fatalf("got %q", buf.String())
	}
	if strings.ContainsRune(buf.String(), '\r') || strings.ContainsRune(buf.String(), 0x1b) {
		t.Fatal("plain mode must not use terminal controls")
	}
}

func TestNoneAndParseMode(t *testing.T) {
	var buf bytes.Buffer
	d := New(&buf, None, "x")
	d.Update(collect.Status{Phase: "sampling"})
	d.Close()
	if buf.Len() != 0 {
		t.Fatal("none printed something")
	}
	for _, tc := range []struct {
		in   string
		term bool
		want Mode
	}{{"auto", true, TTY}, {"auto", false, Plain}, {"tty", false, TTY}, {"none", true, None}, {"plain", true, Plain}} {
		if m, err := ParseMode(tc.in, tc.term); err != nil || m != tc.want {
			t.Errorf("ParseMode(%q,%v) = %v %v", tc.in, tc.term, m, err)
		}
	}
	if _, err := ParseMode("fancy", true); err == nil {
		t.Fatal("bad mode accepted")
	}
}

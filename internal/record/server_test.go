package record

import (
	"bufio"
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// warnings collects a server's warnings.
type warnings struct {
	mu    sync.Mutex
	lines []string
}

func (w *warnings) add(s string) { w.mu.Lock(); w.lines = append(w.lines, s); w.mu.Unlock() }

func (w *warnings) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.lines...)
}

func dial(t testing.TB, path string) net.Conn {
	t.Helper()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Concurrent connections feed one recording; a faulty one is closed and
// named, the others go on; a connection still open at Close is cut off
// after the drain and its open spans are unfinished; the socket is gone.
func TestSocketServesConcurrentConnections(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.sock")
	rec := New(keepAll, probes.Monotonic{})
	var w warnings
	srv, err := ListenSocket(rec, path, w.add)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := dial(t, path)
			defer c.Close()
			var b strings.Builder
			b.WriteString(Header + "\n")
			for j := range 10 {
				b.WriteString("span conn" + strconv.Itoa(i%2) + " " + strconv.Itoa(j) + " success\n")
			}
			c.Write([]byte(b.String()))
		}()
	}
	bad := dial(t, path)
	bad.Write([]byte(Header + "\nspan x 1 success\nspan x one success\n"))
	hung := dial(t, path)
	hung.Write([]byte(Header + "\nbegin 1 hung\n"))
	wg.Wait()
	waitUntil(t, func() bool { return len(w.all()) == 1 && observed(rec) == 81 })
	srv.Close(50 * time.Millisecond)
	for _, name := range []string{"conn0", "conn1"} {
		if tl := tally(t, rec, name); tl.Observed != 40 {
			t.Errorf("%s: %+v", name, tl)
		}
	}
	if tl := tally(t, rec, "hung"); tl.Unfinished != 1 {
		t.Errorf("hung: %+v", tl)
	}
	if got := w.all(); len(got) != 1 || !strings.Contains(got[0], ":3: WALL_NS \"one\"") || !strings.Contains(got[0], "(pid ") {
		t.Errorf("warnings %q", got)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("socket left behind: %v", err)
	}
}

func TestFIFOServesWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "spans")
	rec := New(keepAll, probes.Monotonic{})
	var w warnings
	srv, err := ListenFIFO(rec, path, w.add)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"span a 5 success\n", "begin 1 a\nnonsense\n", "end 1 failure\n"} {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(text))
		f.Close()
	}
	waitUntil(t, func() bool { return observed(rec) == 2 })
	srv.Close(50 * time.Millisecond)
	if got := w.all(); len(got) != 1 || !strings.Contains(got[0], "fifo "+path+":3: unknown message \"nonsense\"") {
		t.Errorf("warnings %q", got)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("FIFO left behind: %v", err)
	}
}

// observed is the spans a recording has observed so far.
func observed(rec *Recording) (n int64) {
	for _, b := range rec.Benches() {
		n += b.Tally().Observed
	}
	return n
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("timed out")
}

// BenchmarkIngest sends b.N span lines over one Unix socket connection
// into a recording that keeps them all, then writes the stream to a
// file; spans/s is the whole path from the client's write to the file.
func BenchmarkIngest(b *testing.B) {
	for _, p := range []Policy{{Name: ndjson.RetainReservoir, Capacity: 10000, Seed: 1}, {Name: ndjson.RetainFirst, Capacity: 1 << 30}} {
		b.Run(p.Name, func(b *testing.B) { benchIngest(b, p) })
	}
}

func benchIngest(b *testing.B, p Policy) {
	dir := b.TempDir()
	var lines bytes.Buffer
	lines.WriteString(Header + "\n")
	for i := range 4096 {
		lines.WriteString("span request-" + strconv.Itoa(i%4) + " " + strconv.Itoa(1000+i*37) + " success\n")
	}
	block := lines.Bytes()[len(Header)+1:]
	out, err := os.Create(filepath.Join(dir, "out.ndjson"))
	if err != nil {
		b.Fatal(err)
	}
	defer out.Close()
	b.ResetTimer()
	rec := New(p, probes.Monotonic{})
	srv, err := ListenSocket(rec, filepath.Join(dir, "s.sock"), func(s string) { b.Error(s) })
	if err != nil {
		b.Fatal(err)
	}
	c := dial(b, srv.Path())
	bw := bufio.NewWriterSize(c, 64<<10)
	bw.WriteString(Header + "\n")
	for sent := 0; sent < b.N; sent += 4096 {
		n := min(4096, b.N-sent)
		bw.Write(block[:lineOffset(block, n)])
	}
	bw.Flush()
	c.Close()
	srv.Close(time.Minute)
	if err := rec.Write(ndjson.NewBufferedWriter(out, 1<<20, time.Second), Meta{RunID: "bench"}, nil, ReasonDuration); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "spans/s")
}

// lineOffset is the length of the first n lines of block.
func lineOffset(block []byte, n int) int {
	off := 0
	for range n {
		off += bytes.IndexByte(block[off:], '\n') + 1
	}
	return off
}

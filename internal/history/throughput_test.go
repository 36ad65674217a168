package history

import (
	"flag"
	"fmt"
	"testing"
	"time"
)

var throughputRuns = flag.Int("history.throughput", 0, "measure adding this many runs, one stream each, to every store (0: skip)")

// TestAddThroughput measures runs added per second, one analysed stream
// of one run (two cases, one comparison) per Add, each its own
// transaction, as CI jobs add them. Run: go test -run AddThroughput
// ./internal/history -history.throughput 1000 -v
func TestAddThroughput(t *testing.T) {
	if *throughputRuns == 0 {
		t.Skip("a measurement: -history.throughput N")
	}
	for name, dsn := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t, dsn)
			raws := make([][]byte, *throughputRuns)
			entries := make([][]Entry, *throughputRuns)
			for i := range raws {
				raws[i] = stream(fixtureRun{id: fmt.Sprintf("t%d", i), started: t0.Add(time.Duration(i) * time.Minute),
					tags: map[string]string{"revision": fmt.Sprint(i)}, medians: []float64{100, 99}})
				var err error
				if entries[i], err = Parse("t", raws[i]); err != nil {
					t.Fatal(err)
				}
			}
			start := time.Now()
			for i := range raws {
				if _, err := s.Add(raws[i], entries[i], nil); err != nil {
					t.Fatal(err)
				}
			}
			el := time.Since(start)
			t.Logf("%s: %d runs in %v: %.0f runs/s", name, len(raws), el.Round(time.Millisecond), float64(len(raws))/el.Seconds())
		})
	}
}

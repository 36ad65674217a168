package tests

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/browser"
	"github.com/flybench/flybench/internal/changepoint"
	"github.com/flybench/flybench/internal/history"
	"github.com/flybench/flybench/pkg/ndjson"
)

// htmlBudget is the largest HTML report accepted for a run of 1,000
// pairs or of 16 cases by 1,000 rounds: a page a CI artifact viewer and a
// mail client open without trouble.
const htmlBudget = 2 << 20

// TestHTMLReportInBrowser renders reports of real and inflated runs in
// headless Chromium, as a person would open them: the page must load
// without console errors or network requests, every plot must have drawn
// content and a text alternative, and the large runs must stay within
// htmlBudget. Sizes, render and load times are logged (go test -v); the
// screenshots are written to $FLYBENCH_SCREENSHOTS when it is set, and
// the streams and pages are kept in $FLYBENCH_KEEP when it is set.
func TestHTMLReportInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short: starts a browser")
	}
	exe, err := browser.Find()
	if errors.Is(err, browser.ErrNotFound) {
		t.Skip("skipped: " + err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if k := os.Getenv("FLYBENCH_KEEP"); k != "" {
		dir = k
	}
	spin := tool("spin")
	two := realRun(t, dir, "two", "--name", "old", "--name", "new", "-t", "600ms", "--metrics", "all",
		"--watch", "retake", "--", spin+" -n 200000", spin+" -n 220000")
	var sixteen []string
	for i := range 16 {
		sixteen = append(sixteen, fmt.Sprintf("%s -n %d", spin, 100000+5000*i))
	}
	many := realRun(t, dir, "many", append([]string{"-t", "800ms", "--"}, sixteen...)...)
	pages := []struct {
		name   string
		stream string
		budget bool
	}{
		{"two cases, as measured", two, false},
		{"1,000 pairs", inflate(t, two, dir+"/pairs1000.ndjson", 1000), true},
		{"16 cases", many, false},
		{"16 cases by 1,000 rounds", inflate(t, many, dir+"/cases16.ndjson", 1000), true},
	}
	for i, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			analyzed := filepath.Join(dir, fmt.Sprintf("page%d.ndjson", i))
			pipe(t, p.stream, analyzed, tool("fb-analyze"))
			html := filepath.Join(dir, fmt.Sprintf("page%d.html", i))
			start := time.Now()
			pipe(t, analyzed, html, tool("fb-report"), "--format", "html")
			render := time.Since(start)
			info, err := os.Stat(html)
			if err != nil {
				t.Fatal(err)
			}
			if p.budget && info.Size() > htmlBudget {
				t.Errorf("page is %d bytes, over the %d-byte budget", info.Size(), htmlBudget)
			}
			page, err := browser.Open(html, browser.Options{Exec: exe})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes, fb-report %v, browser load %v, %d plots, page %d px high",
				p.name, info.Size(), render.Round(time.Millisecond), page.Load.Round(time.Millisecond), len(page.Figures), page.Height)
			checkPage(t, page)
			if out := os.Getenv("FLYBENCH_SCREENSHOTS"); out != "" {
				name := filepath.Join(out, fmt.Sprintf("report-%d.png", i))
				if err := os.WriteFile(name, page.Screenshot, 0o644); err != nil {
					t.Error(err)
				}
			}
		})
	}
	t.Run("series", func(t *testing.T) {
		series := seriesStream(t, filepath.Join(dir, "series.ndjson"))
		html := filepath.Join(dir, "series.html")
		pipe(t, series, html, tool("fb-report"), "--format", "html")
		page, err := browser.Open(html, browser.Options{Exec: exe})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("series: browser load %v, %d plots, page %d px high", page.Load.Round(time.Millisecond), len(page.Figures), page.Height)
		checkPage(t, page)
		if len(page.Figures) != 2 || page.Figures[0].Label != "Median of parse per run" {
			t.Errorf("want 2 series plots titled by their case: %+v", page.Figures)
		}
		if out := os.Getenv("FLYBENCH_SCREENSHOTS"); out != "" {
			if err := os.WriteFile(filepath.Join(out, "report-series.png"), page.Screenshot, 0o644); err != nil {
				t.Error(err)
			}
		}
	})
}

// seriesStream writes a stream of two series as fb-history show writes
// them (change points by its defaults): 60 runs of a case whose median
// steps up 6% at run 21 and back down at run 41, with revisions, and the
// same case on another class, flat. It returns out.
func seriesStream(t *testing.T, out string) string {
	t.Helper()
	var all []ndjson.Series
	for k, class := range []string{"linux/amd64/CPU A/2", "linux/amd64/CPU B/8"} {
		s := ndjson.Series{Series: ndjson.SeriesLevels, Case: "parse", Metric: "median_ns", Class: class, Total: 60}
		for i := range 60 {
			v := 2.5e6 * (1 + 0.01*math.Sin(float64(i*i+k)))
			if k == 0 && i >= 20 && i < 40 {
				v *= 1.06
			}
			s.Points = append(s.Points, ndjson.SeriesPoint{RunID: fmt.Sprintf("%08x-0000", i+100*k), Started: fmt.Sprintf("2026-03-%02dT%02d:00:00Z", 1+i/24, i%24),
				Revision: fmt.Sprintf("%07x", 0xabc000+i), Value: v, N: 20})
		}
		all = append(all, s)
	}
	history.MarkChanges(all, changepoint.DefaultOptions)
	text, err := history.SeriesStream(all)
	must(t, err)
	must(t, os.WriteFile(out, []byte(text), 0o644))
	return out
}

// checkPage asserts what a reader needs: no errors, nothing fetched,
// and plots that drew something and say what they show.
func checkPage(t *testing.T, page *browser.Page) {
	t.Helper()
	if len(page.Console) > 0 {
		t.Errorf("console: %q", page.Console)
	}
	if len(page.Requests) > 0 {
		t.Errorf("the page asked the network for %q", page.Requests)
	}
	if len(page.Figures) == 0 {
		t.Error("no plots on the page")
	}
	for k, f := range page.Figures {
		if f.Elements < 5 || f.Width < 100 || f.Height < 50 {
			t.Errorf("plot %d %q is empty or tiny: %d elements, %.0f×%.0f px", k, f.Label, f.Elements, f.Width, f.Height)
		}
		if strings.TrimSpace(f.Label) == "" {
			t.Errorf("plot %d has no text alternative (aria-label or <title>)", k)
		}
	}
	if !bytes.HasPrefix(page.Screenshot, []byte("\x89PNG")) {
		t.Error("no screenshot")
	}
}

// realRun runs fb-pair with args and returns the stream's path.
func realRun(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	path := filepath.Join(dir, name+".ndjson")
	must(t, os.WriteFile(path, run(t, nil, tool("fb-pair"), args...), 0o644))
	return path
}

// pipe runs prog args with the file in as stdin and writes its stdout to
// the file out.
func pipe(t *testing.T, in, out, prog string, args ...string) {
	t.Helper()
	data, err := os.ReadFile(in)
	must(t, err)
	must(t, os.WriteFile(out, run(t, data, prog, args...), 0o644))
}

// inflate writes, from a real paired or round-robin stream, one of the
// same run (its run, calibration and host records) with units pairs or
// rounds: each case's samples are its measured ones in turn, scaled by a
// slow drift, a deterministic jitter and, every 97th unit, a preemption
// spike; a watch window closes every 25 units and every 7th of them was
// contaminated and retaken. It returns out.
func inflate(t *testing.T, in, out string, units int) string {
	t.Helper()
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	var head [][]byte
	samples := map[int][]map[string]any{}
	var cases int
	var runID string
	for line := range bytes.Lines(data) {
		var rec map[string]any
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatal(err)
		}
		switch rec["type"] {
		case "sample":
			c := int(rec["case"].(float64))
			samples[c] = append(samples[c], rec)
		case "run":
			cases = len(rec["cases"].([]any))
			runID = rec["run_id"].(string)
			head = append(head, line)
		case "window", "end", "look", "block":
		default:
			head = append(head, line)
		}
	}
	var b bytes.Buffer
	for _, line := range head {
		b.Write(line)
	}
	write := func(rec map[string]any) {
		line, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	x := uint64(0x9E3779B97F4A7C15)
	jitter := func() float64 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return float64(x%1000) / 1000
	}
	seq, window := 0, 0
	for u := range units {
		drift := 1 + 0.08*math.Sin(2*math.Pi*float64(u)/float64(units))
		spike := 1.0
		if u%97 == 13 {
			spike = 1.6
		}
		for pos := range cases {
			c := (pos + u) % cases
			base := samples[c][u%len(samples[c])]
			f := drift * spike * (1 + 0.02*jitter())
			rec := map[string]any{"type": "sample", "v": base["v"], "case": c, "unit": u, "pos": pos, "seq": seq,
				"iter": base["iter"], "wall_ns": int64(base["wall_ns"].(float64) * f), "op_ns": base["op_ns"].(float64) * f}
			if axes, ok := base["axes"].(map[string]any); ok {
				rec["axes"] = axes
			}
			if tele, ok := base["tele"].(map[string]any); ok {
				rec["tele"] = map[string]any{"cpu_pct": tele["cpu_pct"].(float64) * (0.8 + 0.4*jitter()),
					"rss_bytes": int64(tele["rss_bytes"].(float64) * (1 + 0.3*float64(u)/float64(units)))}
			}
			write(rec)
			seq++
		}
		if (u+1)%25 == 0 {
			verdict, action := "clean", "kept"
			if window%7 == 3 {
				verdict, action = "contaminated", "retaken"
			}
			write(map[string]any{"type": "window", "v": "1.4", "index": window, "first_unit": u - 24, "units": 25,
				"samples": 25 * cases, "wall_ns": 25 * cases * 10_000_000, "judged": true, "attribution": "host_wide",
				"foreign_pct": 1 + 30*float64(window%7/3), "host_busy_pct": 55, "own_pct": 50, "allowance_pct": 0.5,
				"verdict": verdict, "action": action})
			window++
		}
	}
	counts := make([]int, cases)
	for c := range counts {
		counts[c] = units
	}
	write(map[string]any{"type": "end", "v": "1.4", "run_id": runID, "reason": "completed", "units": units,
		"samples": counts, "retakes": window / 7, "pauses": 0, "paused_ns": 0, "budget_exhausted": false,
		"elapsed_ns": int64(units) * int64(cases) * 12_000_000, "sampling_ns": int64(units) * int64(cases) * 10_000_000})
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

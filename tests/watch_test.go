package tests

import (
	"bytes"
	"errors"
	"io"
	"os/exec"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// watchRun starts an A/A fb-pair under the interference watch, starts a
// foreign CPU load on every CPU once the first windows are in, and returns
// the stream and the window records.
func watchRun(t *testing.T, extra []string, load []string) ([]byte, []ndjson.Window) {
	t.Helper()
	args := append([]string{"--progress", "none", "--samples", "60", "-t", "3s", "--watch-window", "100ms"}, extra...)
	args = append(args, "--", tool("spin")+" -n 2000000", tool("spin")+" -n 2000000")
	cmd := exec.Command(tool("fb-pair"), args...)
	br, out, stderr := startStream(t, cmd, ndjson.TypeWindow, 2)
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	loader := exec.Command(tool("load"), load...)
	if err := loader.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { loader.Process.Kill(); loader.Wait() })
	io.Copy(io.Discard, br)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("fb-pair: %v\n%s", err, stderr.String())
	}
	return out.Bytes(), windowsOf(t, out.Bytes())
}

func windowsOf(t *testing.T, data []byte) []ndjson.Window {
	t.Helper()
	r := ndjson.NewReader(bytes.NewReader(data), "stdout")
	var ws []ndjson.Window
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			return ws
		}
		if err != nil {
			t.Fatal(err)
		}
		if l.Type == ndjson.TypeWindow {
			var w ndjson.Window
			if err := r.Decode(l, &w); err != nil {
				t.Fatal(err)
			}
			ws = append(ws, w)
		}
	}
}

func count(ws []ndjson.Window, f func(ndjson.Window) bool) int {
	n := 0
	for _, w := range ws {
		if f(w) {
			n++
		}
	}
	return n
}

// analyzeStream runs fb-analyze on a stream and returns its output.
func analyzeStream(t *testing.T, data []byte) []byte {
	t.Helper()
	cmd := exec.Command(tool("fb-analyze"))
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A foreign load started mid-run produces contaminated windows; retake
// discards and collects them again, within its budget, and the A/A
// comparison stays equivalent or inconclusive.
func TestWatchRetakesContaminatedWindows(t *testing.T) {
	data, ws := watchRun(t, []string{"--watch", "retake", "--max-retakes", "4"}, []string{"-duty", "1", "-for", "1500ms"})
	contaminated := count(ws, func(w ndjson.Window) bool { return w.Verdict == ndjson.WindowContaminated })
	retaken := count(ws, func(w ndjson.Window) bool { return w.Action == ndjson.ActionRetaken })
	if contaminated == 0 || retaken == 0 || retaken > 4 {
		t.Fatalf("%d contaminated, %d retaken windows of %d", contaminated, retaken, len(ws))
	}
	analyzed := analyzeStream(t, data)
	if !bytes.Contains(analyzed, []byte(`"type":"environment"`)) || !bytes.Contains(analyzed, []byte(`"watched":true`)) {
		t.Fatal("no environment report")
	}
	for _, bad := range []string{`"verdict":"contender faster"`, `"verdict":"reference faster"`} {
		if bytes.Contains(analyzed, []byte(bad)) {
			t.Fatalf("A/A comparison under retake reads %s", bad)
		}
	}
	t.Logf("%d windows, %d contaminated, %d retaken", len(ws), contaminated, retaken)
}

// Pause waits for the host to settle, then collects the window again.
func TestWatchPausesUntilSettled(t *testing.T) {
	_, ws := watchRun(t, []string{"--watch", "pause", "--settle", "200ms", "--max-pause", "10s"}, []string{"-duty", "1", "-for", "800ms"})
	paused := count(ws, func(w ndjson.Window) bool { return w.Action == ndjson.ActionPaused })
	if paused == 0 {
		t.Fatalf("no pause in %d windows", len(ws))
	}
	var pausedNS int64
	for _, w := range ws {
		pausedNS += w.PauseNS
	}
	if pausedNS <= 0 {
		t.Fatalf("paused windows with no pause time: %+v", ws)
	}
	t.Logf("%d windows, %d paused, %.2f s paused", len(ws), paused, float64(pausedNS)/1e9)
}

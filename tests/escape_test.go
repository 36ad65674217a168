package tests

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestEscapedProcessesKilledAndReported is flybench issue 21, item 4: a
// command that starts a background job and exits ('sleep 2 & true') left
// dozens of sleeps running, with no word, under the default timer. Every
// run's process group is checked after the run: what survives is killed,
// and the case's count is in the end record, on stderr and in the analysis.
func TestEscapedProcessesKilledAndReported(t *testing.T) {
	for _, timer := range []string{"wall", "cpu"} {
		t.Run(timer, func(t *testing.T) {
			marker := "31.4271"
			if timer == "cpu" {
				marker = "31.4272"
			}
			cmd := exec.Command(tool("fb-pair"), "--progress", "none", "--samples", "10", "--warmup", "0", "-t", "100ms",
				"--timer", timer, "--shell", "--name", "leaky", "--name", "tidy", "--", "sleep "+marker+" & true", "true")
			var out, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &stderr
			err := cmd.Run()
			// A moment for init to reap what was killed.
			deadline := time.Now().Add(5 * time.Second)
			for childRunning(marker) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if childRunning(marker) {
				t.Fatal("a background job of a benchmarked command outlived its run")
			}
			parseStream(t, out.Bytes())
			escaped := escapedOf(t, out.Bytes())
			if len(escaped) != 2 || escaped[0] < 1 || escaped[1] != 0 {
				t.Fatalf("end record's escaped %v: want the runs of leaky counted", escaped)
			}
			if timer == "cpu" {
				// The CPU timer cannot see the job's CPU time: the run stops (exit 2, as before).
				if code := exitStatus(cmd.ProcessState); code != 2 || !strings.Contains(stderr.String(), "leaving processes of its group running") {
					t.Fatalf("--timer cpu: exit %d, stderr %q", code, stderr.String())
				}
				return
			}
			if err != nil {
				t.Fatalf("fb-pair: %v\n%s", err, stderr.String())
			}
			warn := "fb-pair: warning: leaky: " + strconv.FormatInt(escaped[0], 10) + " runs left processes of their group running when they exited"
			if !strings.Contains(stderr.String(), warn) {
				t.Errorf("stderr %q lacks %q", stderr.String(), warn)
			}
			an := exec.Command(tool("fb-analyze"), "--resamples", "100")
			an.Stdin = &out
			analyzed, err := an.Output()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(analyzed, []byte("leaky: "+strconv.FormatInt(escaped[0], 10)+" runs left processes of their group running when they exited")) {
				t.Errorf("the analysis does not warn of the escapes:\n%s", analyzed)
			}
		})
	}
}

// escapedOf is the escaped counts of a stream's end record.
func escapedOf(t *testing.T, stream []byte) []int64 {
	t.Helper()
	lines := bytes.Split(bytes.TrimSpace(stream), []byte("\n"))
	var end struct {
		Type    string  `json:"type"`
		Escaped []int64 `json:"escaped"`
	}
	if err := json.Unmarshal(lines[len(lines)-1], &end); err != nil || end.Type != "end" {
		t.Fatalf("the stream does not end with an end record: %v", err)
	}
	return end.Escaped
}

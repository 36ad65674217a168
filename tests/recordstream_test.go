package tests

import (
	"bytes"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// doneCounts are the done counts of every benchmark on one plain
// progress line of fb-record.
var doneCounts = regexp.MustCompile(`\| .+? done (\d+) live`)

// recordsvc streams its spans to fb-record as requests finish: the plain
// progress lines written while it runs already count finished spans, and
// the recording's tallies add up (observed = the outcomes' sum = retained
// + omitted), and match the requests recordsvc reports having sent.
func TestRecordsvcStreamsLive(t *testing.T) {
	cmd := exec.Command(tool("fb-record"), "--progress", "plain", "--capacity", "200",
		"--", tool("recordsvc"), "-requests", "1000000", "-duration", "2s", "-concurrency", "4", "-axes", "thread_cpu")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var progress []string
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(l, "fb-record: elapsed") {
			progress = append(progress, l)
		}
	}
	if len(progress) < 2 {
		t.Fatalf("%d progress lines:\n%s", len(progress), stderr.String())
	}
	live := false
	for _, l := range progress[:len(progress)-1] {
		live = live || sumDone(t, l) > 0
	}
	if !live {
		t.Errorf("no progress line before the last counts a finished span:\n%s", strings.Join(progress, "\n"))
	}
	r := parseRecording(t, out)
	var observed int64
	for _, tl := range r.end.Benchmarks {
		var outcomes int64
		for _, n := range tl.Outcomes {
			outcomes += n
		}
		if tl.Observed != outcomes || tl.Retained+tl.Omitted != tl.Observed || tl.Unfinished != 0 || tl.Retained > 200 {
			t.Errorf("benchmark %d: %+v", tl.Index, tl)
		}
		observed += tl.Observed
	}
	// A request cut off by -duration may never reach its handler: at
	// most one per client (4).
	m := regexp.MustCompile(`recordsvc: (\d+) requests`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no summary from recordsvc:\n%s", stderr.String())
	}
	if sent, _ := strconv.ParseInt(m[1], 10, 64); observed > sent || observed < sent-4 || observed == 0 {
		t.Errorf("%d spans observed of %d requests sent", observed, sent)
	}
	if last := sumDone(t, progress[len(progress)-1]); last != observed {
		t.Errorf("the last progress line counts %d spans, the recording %d", last, observed)
	}
}

// sumDone adds the done counts of a progress line.
func sumDone(t *testing.T, line string) int64 {
	t.Helper()
	var sum int64
	for _, m := range doneCounts.FindAllStringSubmatch(line, -1) {
		n, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		sum += n
	}
	return sum
}

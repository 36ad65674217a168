package simcount

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The logs in testdata are valgrind 3.19's own, from the runs their names
// say: a Go program (examples/spin -n 1000), the three processes of
// sh -c 'ls / >/dev/null; /bin/true', a process killed with SIGKILL
// before its summary, and a shell that died of SIGSEGV after it.
func TestParseLog(t *testing.T) {
	for name, want := range map[string]int64{"go.log": 394628, "signal.log": 225663} {
		f, err := os.Open(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseLog(f)
		f.Close()
		if err != nil || got != want {
			t.Errorf("%s: got %d, %v; want %d", name, got, err, want)
		}
	}
}

func TestParseLogWithoutSummary(t *testing.T) {
	f, err := os.Open("testdata/killed.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = ParseLog(f)
	if err == nil || !strings.Contains(err.Error(), "ended before valgrind's summary") {
		t.Fatalf("got %v, want an error saying the summary is missing", err)
	}
	_, err = ParseLog(strings.NewReader("==12== Cachegrind, a cache profiler\n==12== Fatal error at startup: no such tool\n"))
	if err == nil || !strings.HasSuffix(err.Error(), ": Fatal error at startup: no such tool") {
		t.Fatalf("got %v, want the log's message", err)
	}
	_, err = ParseLog(strings.NewReader("==12== I   refs:      99,999,999,999,999,999,999\n"))
	if err == nil {
		t.Fatal("an overflowing count parsed")
	}
}

// TestSumLogs adds up every process of a shell command.
func TestSumLogs(t *testing.T) {
	dir := t.TempDir()
	for i, src := range []string{"sh.8268", "sh.8279", "sh.8296"} {
		data, err := os.ReadFile(filepath.Join("testdata/shell", src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "log."+string(rune('1'+i))), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := sumLogs(dir)
	if want := int64(231662 + 573169 + 128194); err != nil || got != want {
		t.Fatalf("got %d, %v; want %d", got, err, want)
	}
	if _, err := sumLogs(t.TempDir()); err == nil {
		t.Fatal("an empty log directory summed")
	}
}

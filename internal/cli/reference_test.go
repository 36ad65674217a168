package cli

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/flybench/flybench/internal/runner"
)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestRefworkSpeaksTheBatchConvention(t *testing.T) {
	help := refworkHelp(t)
	for _, name := range []string{"$" + runner.EnvN, runner.EnvReportFD} {
		if !strings.Contains(help, name) {
			t.Fatalf("fb-refwork --help does not name %s: the batch convention changed", name)
		}
	}
	dir := t.TempDir()
	report := filepath.Join(dir, "report")
	f, err := os.Create(report)
	must(t, err)
	defer f.Close()
	var stderr strings.Builder
	// fb-refwork closes its report descriptor when it is done, as a
	// process of its own would: give it a duplicate, so that the test's
	// own descriptor is not closed twice (a number the runtime may have
	// reused by then).
	getenv := func(k string) string {
		if k == runner.EnvReportFD {
			fd, err := syscall.Dup(int(f.Fd()))
			must(t, err)
			return strconv.Itoa(fd)
		}
		return ""
	}
	code := Run("fb-refwork", []string{"fb-refwork", "--iterations", "2", "--report", "int"}, Env{Stdout: io.Discard, Stderr: &stderr, Getenv: getenv})
	data, _ := os.ReadFile(report)
	if code != ExitOK || !regexp.MustCompile(`^done 2 elapsed_ns=[0-9]+\n$`).Match(data) {
		t.Fatalf("exit %d, report %q, stderr %q", code, data, stderr.String())
	}
	stderr.Reset()
	if code := Run("fb-refwork", []string{"fb-refwork", "float"}, Env{Stdout: io.Discard, Stderr: &stderr, Getenv: getenv}); code != ExitUsage ||
		stderr.String() != "fb-refwork: error: no reference workload \"float\": use int or mem\n" {
		t.Fatalf("unknown workload: exit %d, stderr %q", code, stderr.String())
	}
}

func refworkHelp(t *testing.T) string {
	t.Helper()
	var out strings.Builder
	if code := Run("fb-refwork", []string{"fb-refwork", "--help"}, Env{Stdout: &out, Stderr: io.Discard, Getenv: func(string) string { return "" }}); code != ExitOK {
		t.Fatalf("--help exited %d", code)
	}
	return out.String()
}

package tests

import (
	"bytes"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// exitCase drives one tool to one exit status its man page documents.
type exitCase struct {
	tool   string
	args   []string
	stdout string // a path to write stdout to (e.g. /dev/full), or "" to keep it
	signal syscall.Signal
	busy   bool // keep one CPU busy meanwhile
	code   int
	stderr string // a substring the message must contain
	skip   func() string
}

// TestExitCodes runs every tool through every exit status it documents
// (man pages, EXIT STATUS), asserting the status itself and the line that
// explains it.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	spin := tool("spin") + " -n 1000"
	fixtures := exitFixtures(t, dir, spin)
	maps.Copy(fixtures, checkFixtures(t, dir))
	cases := []exitCase{
		{tool: "fb-analyze", args: []string{fixtures["raw"]}, code: 0},
		{tool: "fb-analyze", args: []string{fixtures["raw"]}, stdout: "/dev/full", code: 14, stderr: "write records"},
		{tool: "fb-analyze", args: []string{"--resamples", "5"}, code: 2, stderr: "--resamples 5 out of range"},
		{tool: "fb-analyze", args: []string{fixtures["bad"]}, code: 3, stderr: "bad.ndjson:2:"},
		{tool: "fb-analyze", args: []string{fixtures["future"]}, code: 4, stderr: "schema version 9.0"},
		{tool: "fb-analyze", args: []string{"--baseline", fixtures["otherbuild"], fixtures["raw"]}, code: 13, stderr: "--allow-mismatch tool_version"},
		{tool: "fb-report", args: []string{fixtures["analyzed"]}, code: 0},
		{tool: "fb-report", args: []string{fixtures["analyzed"]}, stdout: "/dev/full", code: 14, stderr: "write report"},
		{tool: "fb-report", args: []string{"--format", "json", "--samples", fixtures["analyzed"]}, stdout: "/dev/full", code: 14, stderr: "write report"},
		{tool: "fb-report", args: []string{"--format", "gobench", fixtures["analyzed"]}, stdout: "/dev/full", code: 14, stderr: "write gobench"},
		{tool: "fb-report", args: []string{"--format", "hyperfine-json", fixtures["analyzed"]}, stdout: "/dev/full", code: 14, stderr: "write report"},
		{tool: "fb-report", args: []string{"--format", "pdf"}, code: 2, stderr: "--format"},
		{tool: "fb-report", args: []string{fixtures["bad"]}, code: 3, stderr: "no report was written"},
		{tool: "fb-report", args: []string{fixtures["future"]}, code: 4, stderr: "schema version 9.0"},
		{tool: "fb-report", args: []string{fixtures["raw"]}, code: 6, stderr: "was not analyzed"},
		{tool: "fb-report", args: []string{fixtures["torn"]}, code: 6, stderr: "has no analysis record: the stream ends mid-record"},
		{tool: "fb-report", args: []string{"--format", "hyperfine-json", fixtures["torn"]}, code: 6, stderr: "has no analysis record"},
		{tool: "fb-check", args: []string{fixtures["check-pass"]}, code: 0},
		{tool: "fb-check", args: []string{fixtures["check-pass"]}, stdout: "/dev/full", code: 14, stderr: "write check"},
		{tool: "fb-check", args: []string{"--record", "/dev/full", fixtures["check-pass"]}, code: 14, stderr: "--record"},
		{tool: "fb-check", args: []string{"--max-slowdown", "-1", fixtures["check-pass"]}, code: 2, stderr: "--max-slowdown -1"},
		{tool: "fb-check", args: []string{"--memory-floor", "64k", fixtures["check-pass"]}, code: 2, stderr: "--memory-floor"},
		{tool: "fb-check", args: []string{fixtures["bad"]}, code: 3, stderr: "bad.ndjson:2:"},
		{tool: "fb-check", args: []string{"--noise", fixtures["check-pass"], fixtures["check-pass"]}, code: 3, stderr: "not a noise record"},
		{tool: "fb-check", args: []string{fixtures["future"]}, code: 4, stderr: "schema version 9.0"},
		{tool: "fb-check", args: []string{fixtures["raw"]}, code: 6, stderr: "was not analyzed"},
		{tool: "fb-check", args: []string{fixtures["torn"]}, code: 6, stderr: "has no analysis record: the stream ends mid-record"},
		{tool: "fb-check", args: []string{fixtures["check-regressed"]}, code: 12, stderr: "regressed: 1 of 1 metric: old → new time (+10.0%)"},
		{tool: "fb-check", args: []string{fixtures["check-single"]}, code: 13, stderr: "nothing to compare"},
		{tool: "fb-check", args: []string{"--noise", fixtures["check-noise-other"], fixtures["check-pass"]}, code: 13, stderr: "recalibrate with fb-noise"},
		{tool: "fb-sample", args: quick(spin), code: 0},
		{tool: "fb-sample", args: []string{"--samples", "5", "--", spin}, code: 2, stderr: "--samples 5"},
		{tool: "fb-sample", args: quick("false"), code: 5, stderr: `command "false" exited with status 1`},
		{tool: "fb-sample", args: append([]string{"--timeout", "300ms"}, quick("sleep 5")...), code: 15, stderr: "ran longer than its time limit of 300ms"},
		{tool: "fb-sample", args: append([]string{"--conditions", "fail", "--require-profile-detection"}, quick(spin)...), code: 8,
			stderr: "operating conditions unacceptable", skip: profileDetectable},
		{tool: "fb-sample", args: append([]string{"--cpu", "4096", "--require-strict"}, quick(spin)...), code: 9, stderr: "--require-strict"},
		{tool: "fb-pair", args: quick(spin, spin), code: 0},
		{tool: "fb-pair", args: []string{"--", spin}, code: 2, stderr: "takes 2 to 16"},
		{tool: "fb-pair", args: quick(spin, spin), stdout: "/dev/full", code: 14, stderr: "write record: write /dev/stdout: no space left on device"},
		{tool: "fb-pair", args: quick(spin, "false"), code: 5, stderr: `command "false" exited with status 1`},
		{tool: "fb-pair", args: append([]string{"--require-perf"}, quick(spin, spin)...), code: 7, stderr: "--require-perf", skip: pmuPresent},
		{tool: "fb-pair", args: append([]string{"--cpu", "4096", "--require-strict"}, quick(spin, spin)...), code: 9, stderr: "--require-strict"},
		{tool: "fb-pair", args: append([]string{"--timeout", "300ms"}, quick(spin, "sleep 5")...), code: 15, stderr: "ran longer than its time limit of 300ms"},
		{tool: "fb-pair", args: long(spin), signal: syscall.SIGINT, code: 130, stderr: "interrupted by SIGINT"},
		{tool: "fb-pair", args: long(spin), signal: syscall.SIGTERM, code: 143, stderr: "interrupted by SIGTERM"},
		{tool: "fb-lock", args: []string{"--path", filepath.Join(dir, "claim"), "true"}, code: 0},
		{tool: "fb-lock", args: []string{"--status", "--path", fixtures["raw"]}, code: 1, stderr: "is not a directory"},
		{tool: "fb-lock", args: []string{"--path", filepath.Join(dir, "claim")}, code: 2, stderr: "no PROGRAM given"},
		{tool: "fb-lock", args: []string{"--path", filepath.Join(dir, "claim"), "--record", "/dev/full", "true"}, code: 14, stderr: "write record"},
		{tool: "fb-lock", args: []string{"--path", filepath.Join(dir, "claim"), "no-such-program-here"}, code: 5, stderr: "not found"},
		{tool: "fb-gate", args: []string{"--max-average", "100", "--max-core", "100", "--stable", "100ms", "--progress", "none", "true"}, code: 0},
		{tool: "fb-gate", args: []string{"--max-average", "100", "--max-core", "100", "--stable", "100ms", "--progress", "none", "--record", "/dev/full", "true"},
			code: 14, stderr: "write record"},
		{tool: "fb-gate", args: []string{"--max-average", "200", "true"}, code: 2, stderr: "--max-average"},
		{tool: "fb-gate", args: []string{"--max-average", "100", "--max-core", "100", "--stable", "100ms", "--progress", "none", "no-such-program-here"},
			code: 5, stderr: "not found"},
		{tool: "fb-gate", args: []string{"--max-average", "1", "--max-core", "1", "--stable", "200ms", "--timeout", "300ms", "--progress", "none", "true"},
			busy: true, code: 10, stderr: "host not quiet"},
		{tool: "fb-noise", args: noiseOf("cat", fixtures["raw"]), code: 0},
		{tool: "fb-noise", args: noiseOf("cat", fixtures["raw"]), stdout: "/dev/full", code: 14, stderr: "write record"},
		{tool: "fb-noise", args: []string{"--min-runs", "3"}, code: 2, stderr: "no COMMAND given"},
		{tool: "fb-noise", args: noiseOf("cat", fixtures["bad"]), code: 3, stderr: "invocation 1: line 2: "},
		{tool: "fb-noise", args: noiseOf("cat", fixtures["future"]), code: 4, stderr: "schema version 9.0"},
		{tool: "fb-noise", args: noiseOf("false"), code: 5, stderr: `invocation 1: command "false" exited with status 1`},
		{tool: "fb-noise", args: noiseOf(append([]string{tool("fb-pair")}, long(spin)...)...), signal: syscall.SIGINT, code: 130, stderr: "interrupted by SIGINT"},
		{tool: "fb-noise", args: noiseOf(append([]string{tool("fb-pair")}, long(spin)...)...), signal: syscall.SIGTERM, code: 143, stderr: "interrupted by SIGTERM"},
		{tool: "fb-import", args: []string{"hyperfine", hyperfineFile("two.json")}, code: 0},
		{tool: "fb-import", args: []string{"hyperfine", hyperfineFile("two.json")}, stdout: "/dev/full", code: 14, stderr: "write stream"},
		{tool: "fb-import", args: []string{"criterion", hyperfineFile("two.json")}, code: 2, stderr: `unknown format "criterion"`},
		{tool: "fb-import", args: []string{"hyperfine", hyperfineFile("bad-negative.json")}, code: 3, stderr: "bad-negative.json:7:"},
		{tool: "fb-record", args: []string{"--progress", "none", "--duration", "100ms"}, code: 0},
		{tool: "fb-record", args: []string{"--progress", "none", "--duration", "100ms"}, stdout: "/dev/full", code: 14, stderr: "write record"},
		{tool: "fb-record", args: []string{"--retention", "random"}, code: 2, stderr: `--retention "random"`},
		{tool: "fb-record", args: []string{"--progress", "none", "no-such-program-here"}, code: 5, stderr: "not found"},
		{tool: "fb-record", args: []string{"--progress", "none", "false"}, code: 5, stderr: `program "false" exit status 1; the recording was written`},
		{tool: "fb-record", args: []string{"--progress", "none", "sleep", "60"}, signal: syscall.SIGINT, code: 130, stderr: "interrupted by SIGINT"},
		{tool: "fb-record", args: []string{"--progress", "none", "sleep", "60"}, signal: syscall.SIGTERM, code: 143, stderr: "interrupted by SIGTERM"},
	}
	for _, c := range cases {
		t.Run(c.tool+"/"+strconv.Itoa(c.code), func(t *testing.T) {
			if c.skip != nil {
				if why := c.skip(); why != "" {
					t.Skip(why)
				}
			}
			code, stderr := runForExit(t, c)
			if code != c.code || !strings.Contains(stderr, c.stderr) {
				t.Errorf("%s %q: exit %d, stderr %q; want exit %d and %q", c.tool, c.args, code, stderr, c.code, c.stderr)
			}
		})
	}
	t.Run("fb-lock/11", func(t *testing.T) { lockRefusal(t, filepath.Join(dir, "held")) })
}

// hyperfineFile is a hyperfine --export-json file of the importer's tests.
func hyperfineFile(name string) string {
	return filepath.Join("..", "internal", "importer", "testdata", name)
}

// quick is a fast fb-sample/fb-pair run of commands.
func quick(commands ...string) []string {
	return append([]string{"--progress", "none", "--samples", "10", "--warmup", "0", "-t", "20ms", "--"}, commands...)
}

// noiseOf is a short fb-noise calibration of a command.
func noiseOf(command ...string) []string {
	return append([]string{"--quiet", "--min-runs", "3", "--max-runs", "3", "--"}, command...)
}

// long is an fb-pair run that lasts long enough to be signalled.
func long(command string) []string {
	return []string{"--progress", "none", "--samples", "1000", "-t", "60s", "--", command, command}
}

func runForExit(t *testing.T, c exitCase) (int, string) {
	t.Helper()
	cmd := exec.Command(tool(c.tool), c.args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if c.stdout != "" {
		f, err := os.OpenFile(c.stdout, os.O_WRONLY, 0)
		if err != nil {
			t.Skipf("cannot open %s: %v", c.stdout, err)
		}
		defer f.Close()
		cmd.Stdout = f
	}
	if c.busy {
		load := exec.Command(tool("load"), "-period", "1s", "-duty", "1", "-threads", "1")
		if err := load.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { load.Process.Kill(); load.Wait() }()
		time.Sleep(100 * time.Millisecond)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if c.signal != 0 {
		time.Sleep(700 * time.Millisecond)
		cmd.Process.Signal(c.signal)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

// lockRefusal holds the claim with one fb-lock and asks another for a
// machine-wide claim it must not wait for: exit 11.
func lockRefusal(t *testing.T, dir string) {
	holder := exec.Command(tool("fb-lock"), "--path", dir, "--record", "none", "sleep", "5")
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { holder.Process.Kill(); holder.Wait() }()
	deadline := time.Now().Add(5 * time.Second)
	for {
		out, _ := exec.Command(tool("fb-lock"), "--status", "--path", dir).Output()
		if bytes.Contains(out, []byte("machine")) || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	code, stderr := runForExit(t, exitCase{tool: "fb-lock", args: []string{"--path", dir, "--timeout", "200ms", "--poll", "50ms", "--require-machine-scope", "true"}})
	if code != 11 || !strings.Contains(stderr, "--require-machine-scope") {
		t.Errorf("busy claim: exit %d, stderr %q; want 11", code, stderr)
	}
}

// exitFixtures writes the streams the table reads: a raw stream, its
// analysis, one with a bad second line and one of an unknown schema.
func exitFixtures(t *testing.T, dir, spin string) map[string]string {
	t.Helper()
	raw, err := exec.Command(tool("fb-pair"), quick(spin, spin)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool("fb-analyze"))
	cmd.Stdin = bytes.NewReader(raw)
	analyzed, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := bytes.Cut(raw, []byte("\n"))
	files := map[string][]byte{
		"raw":      raw,
		"analyzed": analyzed,
		"torn":     raw[:len(raw)-20], // cut inside the end record
		"bad":      []byte(string(first) + "\n" + `{"type":"sample","v":"1.3","case":"x"}` + "\n"),
		"future":   []byte(`{"type":"run","v":"9.0"}` + "\n"),
		// The same run as if collected by another release: a baseline
		// whose fingerprint differs.
		"otherbuild": bytes.Replace(raw, []byte(`"tool_version":"`), []byte(`"tool_version":"other-`), 1),
	}
	paths := map[string]string{}
	for name, data := range files {
		p := filepath.Join(dir, name+".ndjson")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	return paths
}

func pmuPresent() string {
	if hasPMU() {
		return "this machine has a PMU: --require-perf succeeds"
	}
	return ""
}

func profileDetectable() string {
	if _, err := os.Stat("/sys/firmware/acpi/platform_profile"); err == nil {
		return "a platform profile is detectable here"
	}
	if _, err := os.Stat("/run/dbus/system_bus_socket"); err == nil {
		return "a system bus is present; power-profiles-daemon may detect the profile"
	}
	return ""
}

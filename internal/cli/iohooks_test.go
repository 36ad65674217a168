package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"
)

// parsePair runs fb-pair's flag parsing on args and applies f to the
// parsed context.
func parsePair(t *testing.T, args []string, f func(c *ucli.Context) error) error {
	t.Helper()
	app := pairApp(Env{})
	app.Action = f
	return app.Run(append([]string{"fb-pair"}, args...))
}

func usageCode(err error) bool {
	var ee *exitError
	return errors.As(err, &ee) && ee.code == ExitUsage
}

// TestHookCounts: a hook flag given once is for every command; given once
// per command, the i-th is the i-th command's; any other count is a usage
// error naming both counts. Commas stay inside a hook.
func TestHookCounts(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		prepare hookSet
		cleanup hookSet
		err     string
	}{
		{args: nil},
		{args: []string{"-p", "echo a,b"}, prepare: hookSet{all: "echo a,b"}},
		{args: []string{"--prepare", "x", "--prepare", "y", "-c", "z"}, prepare: hookSet{each: []string{"x", "y"}}, cleanup: hookSet{all: "z"}},
		{args: []string{"-c", "u", "-c", "v"}, cleanup: hookSet{each: []string{"u", "v"}}},
		{args: []string{"-p", "x", "-p", "y", "-p", "z"}, err: "3 --prepare values for 2 commands"},
		{args: []string{"--conclude", "x", "--conclude", "y", "--conclude", "z"}, err: "3 --conclude values for 2 commands"},
	} {
		var got caseHooks
		err := parsePair(t, append(tc.args, "--", "a", "b"), func(c *ucli.Context) (err error) {
			got, err = hooksOf(c, 2, nil)
			return err
		})
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !usageCode(err) {
				t.Errorf("%q: %v, want a usage error with %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got.prepare, tc.prepare) || !reflect.DeepEqual(got.cleanup, tc.cleanup) {
			t.Errorf("%q: prepare %+v cleanup %+v, %v; want %+v and %+v", tc.args, got.prepare, got.cleanup, err, tc.prepare, tc.cleanup)
		}
	}
}

// TestHooksInAScan: a hook given once that uses a parameter becomes one
// per scanned case with its value; one without stays for every case; one
// per scanned case is accepted, and another count is refused.
func TestHooksInAScan(t *testing.T) {
	params := []map[string]string{{"t": "1"}, {"t": "2"}, {"t": "3"}}
	s, err := hookSetOf("setup", []string{"make -j{t}"}, 3, params)
	if err != nil || !reflect.DeepEqual(s.each, []string{"make -j1", "make -j2", "make -j3"}) {
		t.Fatalf("template hook: %+v, %v", s, err)
	}
	if s, err = hookSetOf("setup", []string{"make ${t}"}, 3, params); err != nil || s.all != "make ${t}" {
		t.Fatalf("hook without a parameter: %+v, %v", s, err)
	}
	if s, err = hookSetOf("setup", []string{"a", "b {t}", "c"}, 3, params); err != nil || !reflect.DeepEqual(s.each, []string{"a", "b 2", "c"}) {
		t.Fatalf("one per case: %+v, %v", s, err)
	}
	if _, err = hookSetOf("setup", []string{"a", "b"}, 3, params); err == nil || !strings.Contains(err.Error(), "2 --setup values for 3 scanned cases") {
		t.Fatalf("wrong count: %v", err)
	}
	if got := (hookSet{each: []string{"a", "b"}}).of(2); got != "" {
		t.Fatalf("the reference workload got hook %q", got)
	}
}

// TestStdioFlags: null is /dev/null, --show-output implies --output
// inherit and conflicts with another --output, a missing input is a
// usage error naming it, and worker and gotest modes refuse both flags.
func TestStdioFlags(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(in, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode string
		args []string
		want stdioFlags
		err  string
	}{
		{args: nil},
		{args: []string{"--input", "null", "--output", "null"}},
		{args: []string{"--input", in, "--output", "pipe"}, want: stdioFlags{input: in, output: "pipe"}},
		{args: []string{"--show-output"}, want: stdioFlags{output: "inherit"}},
		{args: []string{"--show-output", "--output", "inherit"}, want: stdioFlags{output: "inherit"}},
		{args: []string{"--show-output", "--output", "out.txt"}, err: "--show-output sends stdout"},
		{args: []string{"--input", in + ".missing"}, err: `--input "` + in + `.missing": no such file`},
		{args: []string{"--input", filepath.Dir(in)}, err: "not a readable file"},
		{mode: "worker", args: []string{"--output", "pipe"}, err: "--worker uses the commands' stdin and stdout"},
		{mode: "gotest", args: []string{"--input", in}, err: "--gotest uses"},
		{mode: "worker", args: []string{"--show-output"}},
	} {
		mode := tc.mode
		if mode == "" {
			mode = "exec"
		}
		var got stdioFlags
		err := parsePair(t, append(tc.args, "--", "a", "b"), func(c *ucli.Context) (err error) {
			got, err = stdioOf(c, mode)
			return err
		})
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !usageCode(err) {
				t.Errorf("%s %q: %v, want a usage error with %q", mode, tc.args, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s %q: %+v, %v; want %+v", mode, tc.args, got, err, tc.want)
		}
	}
}

// TestOutputFileOnResume: --output FILE starts afresh, but a resumed
// collection adds to what the interrupted one wrote.
func TestOutputFileOnResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	for _, resume := range []bool{false, true} {
		if err := os.WriteFile(path, []byte("before\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		req := &measureRequest{stdio: stdioFlags{output: path}}
		if resume {
			req.resume = &resumeRequest{}
		}
		m := &measurement{measureRequest: req, env: Env{Stdout: io.Discard}}
		f, err := m.stdoutFile()
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("after\n")
		f.Close()
		got, _ := os.ReadFile(path)
		want := "after\n"
		if resume {
			want = "before\nafter\n"
		}
		if string(got) != want {
			t.Errorf("resume %v: %q, want %q", resume, got, want)
		}
	}
}

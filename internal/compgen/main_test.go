package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/cli"
	"github.com/flybench/flybench/internal/completion"
)

// The committed scripts must be what the tools' flags generate.
func TestCompletionsUpToDate(t *testing.T) {
	stale, err := Generate(filepath.Join("..", "..", "completions"), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Fatalf("stale completion scripts %v: run make completions", stale)
	}
}

// Every tool's script, in every shell, names every flag of the tool and
// parses in that shell (skipped, with the reason, where it is missing).
func TestEveryToolFlagAndSyntax(t *testing.T) {
	missing := map[string]bool{}
	for _, shell := range completion.Shells {
		for _, tool := range cli.Tools() {
			script, err := completion.Script(shell, cli.CompletionSpec(tool))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range cli.App(tool).VisibleFlags() {
				for _, n := range f.Names() {
					if !completion.Mentions(shell, script, n) {
						t.Errorf("%s %s: flag %s missing", shell, tool, n)
					}
				}
			}
			ok, err := completion.Parse(shell, script)
			if err != nil {
				t.Errorf("%s %s: %v", shell, tool, err)
			}
			missing[shell] = !ok
		}
	}
	for shell, m := range missing {
		if m {
			t.Logf("%s not installed: its scripts' syntax is not checked", shell)
		}
	}
}

// fish, given a tool's script, offers its flags and their choices.
func TestFishCompletes(t *testing.T) {
	if _, err := exec.LookPath("fish"); err != nil {
		t.Skip("fish not installed: cannot run its completion")
	}
	script, _ := completion.Script("fish", cli.CompletionSpec("fb-report"))
	file := filepath.Join(t.TempDir(), "fb-report.fish")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	for line, want := range map[string]string{"fb-report --form": "--format", "fb-report --format ma": "markdown", "fb-report --color ": "always"} {
		out, err := exec.Command("fish", "--no-config", "-c", "source "+file+"; complete -C'"+line+"'").CombinedOutput()
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("%q: got %q (%v), want %q", line, out, err, want)
		}
	}
}

// make install DESTDIR=... puts the tools, the man pages and the
// completion scripts where their programs look for them.
func TestMakeInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every tool")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not installed")
	}
	dest := t.TempDir()
	cmd := exec.Command("make", "install", "DESTDIR="+dest, "PREFIX=/opt/fb", "BIN="+filepath.Join(dest, "build"))
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make install: %v\n%s", err, out)
	}
	root := filepath.Join(dest, "opt", "fb")
	want := []string{"share/man/man5/fb-stream.5", "share/man/man7/fb-worker.7"}
	for _, tool := range cli.Tools() {
		want = append(want, "bin/"+tool, "share/man/man1/"+tool+".1",
			"share/bash-completion/completions/"+tool, "share/zsh/site-functions/_"+tool,
			"share/fish/vendor_completions.d/"+tool+".fish")
	}
	for _, p := range want {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("not installed: %v", err)
		}
	}
}

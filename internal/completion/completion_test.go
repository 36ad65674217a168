package completion

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// spec is a tool with every kind of flag, and usage text that needs quoting.
var spec = Spec{Tool: "fb-x", Flags: []Flag{
	{Names: []string{"format", "f"}, Usage: "console or csv: it's [the] form", TakesValue: true, Choices: []string{"console", "csv"}},
	{Names: []string{"output"}, Usage: `to this FILE\`, TakesValue: true},
	{Names: []string{"name"}, Usage: "repeat it", TakesValue: true, Repeatable: true},
	{Names: []string{"quiet", "q"}, Usage: "say less"},
}}

// Every script names every spelling of every flag, and shells other than
// the three are refused.
func TestScriptsNameEveryFlag(t *testing.T) {
	for _, shell := range Shells {
		script, err := Script(shell, spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range spec.Flags {
			for _, n := range f.Names {
				if !Mentions(shell, script, n) {
					t.Errorf("%s script lacks %s:\n%s", shell, dashed(n), script)
				}
			}
		}
	}
	if _, err := Script("ksh", spec); err == nil {
		t.Error("ksh accepted")
	}
}

// bash completes flag names, a flag's choices (after a space or '='), and
// files for arguments, for values without choices and after "--".
func TestBashCompletes(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	script, _ := Script("bash", spec)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "input.ndjson"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ words, want string }{
		{"fb-x --f", "--format"},
		{"fb-x -", "--format -f --output --name --quiet -q"},
		{"fb-x --format c", "console csv"},
		{"fb-x -f cs", "csv"},
		{"fb-x --format = co", "console"},
		{"fb-x --output inp", "input.ndjson"},
		{"fb-x --quiet inp", "input.ndjson"},
		{"fb-x -- --format c", ""},
		{"fb-x -- inp", "input.ndjson"},
	}
	for _, c := range cases {
		probe := script + "COMP_WORDS=(" + c.words + "); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _fb_x; echo \"${COMPREPLY[*]}\"\n"
		cmd := exec.Command("bash", "--norc", "-c", probe)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != c.want {
			t.Errorf("%q: got %q (%v), want %q", c.words, out, err, c.want)
		}
	}
}

// The descriptions survive quoting: fish and zsh see them as written.
func TestQuoting(t *testing.T) {
	fish, _ := Script("fish", spec)
	if !strings.Contains(fish, `-d 'console or csv: it\'s [the] form'`) || !strings.Contains(fish, `-d 'to this FILE\\'`) {
		t.Errorf("fish quoting:\n%s", fish)
	}
	zsh, _ := Script("zsh", spec)
	if !strings.Contains(zsh, `[console or csv\: it'\''s \[the\] form]:format:(console csv)`) {
		t.Errorf("zsh quoting:\n%s", zsh)
	}
	if !strings.Contains(zsh, `[to this FILE\\]`) {
		t.Errorf("zsh backslash:\n%s", zsh)
	}
	if !strings.Contains(zsh, `'*--name=[repeat it]:name:_files'`) {
		t.Errorf("zsh repeatable flag:\n%s", zsh)
	}
}

package cli

import (
	"strings"
	"testing"
)

// --generate-completion prints a script naming every flag of the tool, in
// either spelling, and refuses an unknown shell or extra words as a usage
// error.
func TestGenerateCompletion(t *testing.T) {
	for _, args := range [][]string{{"--generate-completion", "fish"}, {"--generate-completion=fish"}} {
		code, out, errs := runTool("fb-report", args...)
		if code != ExitOK || errs != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errs)
		}
		for _, want := range []string{"complete -c fb-report -l format -s f -x -a 'console csv json markdown long-csv hyperfine-json", "-l details", "-l help -s h"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: script lacks %q:\n%s", args, want, out)
			}
		}
	}
	for _, args := range [][]string{{"--generate-completion", "ksh"}, {"--generate-completion"}, {"--generate-completion", "bash", "x"}} {
		code, out, errs := runTool("fb-analyze", args...)
		if code != ExitUsage || out != "" || !strings.HasPrefix(errs, "fb-analyze: error: --generate-completion") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want a usage error", args, code, out, errs)
		}
	}
}

// Tool-specific choices win over the shared ones: fb-check's formats are
// not fb-report's, fb-analyze has a legacy estimator.
func TestCompletionChoicesPerTool(t *testing.T) {
	choices := func(tool, flag string) string {
		for _, f := range CompletionSpec(tool).Flags {
			if f.Names[0] == flag {
				return strings.Join(f.Choices, " ")
			}
		}
		t.Fatalf("%s has no --%s", tool, flag)
		return ""
	}
	if got := choices("fb-check", "format"); got != "console markdown ndjson" {
		t.Errorf("fb-check --format choices %q", got)
	}
	if got := choices("fb-analyze", "estimator"); got != "robust mean legacy" {
		t.Errorf("fb-analyze --estimator choices %q", got)
	}
	if got := choices("fb-pair", "estimator"); got != "robust mean" {
		t.Errorf("fb-pair --estimator choices %q", got)
	}
	if got := choices("fb-record", "retention"); got != "reservoir first latest" {
		t.Errorf("fb-record --retention choices %q", got)
	}
}

// Every choice in the table is named in its flag's usage, and every entry
// belongs to a flag some tool has, so the table cannot drift from the flags.
func TestCompletionChoicesMatchUsage(t *testing.T) {
	used := map[string]bool{completionFlag: true}
	for _, tool := range Tools() {
		for _, f := range App(tool).VisibleFlags() {
			name := f.Names()[0]
			key := tool + "/" + name
			if _, ok := flagChoices[key]; !ok {
				key = name
			}
			values, ok := flagChoices[key]
			if !ok {
				continue
			}
			used[key] = true
			usage := f.(interface{ GetUsage() string }).GetUsage()
			for _, v := range values {
				if !strings.Contains(usage, v) {
					t.Errorf("%s --%s: choice %q not in its usage %q", tool, name, v, usage)
				}
			}
		}
	}
	for key := range flagChoices {
		if !used[key] {
			t.Errorf("choices for %q: no tool has that flag", key)
		}
	}
}

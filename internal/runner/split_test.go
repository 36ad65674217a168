package runner

import (
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"./old/bin --x", []string{"./old/bin", "--x"}},
		{"  a \t b  ", []string{"a", "b"}},
		{`echo 'a b' "c d"`, []string{"echo", "a b", "c d"}},
		{`echo '' ""`, []string{"echo", "", ""}},
		{`echo a'b'"c"d`, []string{"echo", "abcd"}},
		{`echo 'it'\''s'`, []string{"echo", "it's"}},
		{`echo a\ b \"q\" \\`, []string{"echo", "a b", `"q"`, `\`}},
		{`echo "\$x \" \\ \n"`, []string{"echo", `$x " \ \n`}},
		{`echo '$HOME $(x) ; | >'`, []string{"echo", "$HOME $(x) ; | >"}},
		{"echo a\\\nb", []string{"echo", "ab"}},
		{`grep -E a* [x] ~/f cost$ $ x$/`, []string{"grep", "-E", "a*", "[x]", "~/f", "cost$", "$", "x$/"}},
		{`run --color=#fff`, []string{"run", "--color=#fff"}},
		{`./bench X=1`, []string{"./bench", "X=1"}},
		{`'A=1' cmd`, nil}, // refused: looks like an assignment
	}
	for _, tt := range tests {
		got, err := Split(tt.in, false)
		if tt.want == nil {
			if err == nil {
				t.Errorf("Split(%q) = %q, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestSplitErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "empty command"},
		{"  \t ", "empty command"},
		{"a | b", `unquoted '|' is shell syntax at offset 2 of "a | b"; pass Command.Shell`},
		{"a; b", "unquoted ';'"},
		{"a && b", "unquoted '&'"},
		{"a &", "unquoted '&'"},
		{"a > out", "unquoted '>'"},
		{"a 2>&1", "unquoted '>'"},
		{"a < in", "unquoted '<'"},
		{"(a)", "unquoted '('"},
		{"a\nb", `unquoted '\n'`},
		{"echo $(date)", "$( is command substitution"},
		{`echo "$(date)"`, "$( is command substitution"},
		{"echo `date`", "` is command substitution"},
		{"echo $HOME", "$ is variable expansion"},
		{`echo "${HOME}"`, "$ is variable expansion"},
		{"echo $1 $?", "$ is variable expansion"},
		{"echo # comment", "# starts a comment"},
		{"FOO=1 ./bench", `"FOO=1" is a variable assignment; pass Command.Shell`},
		{"echo 'open", "unterminated single quote"},
		{`echo "open`, "unterminated double quote"},
		{`echo \`, "trailing backslash"},
	}
	for _, tt := range tests {
		got, err := Split(tt.in, false)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Split(%q) = %q, %v; want error containing %q", tt.in, got, err, tt.want)
		}
	}
}

func TestSplitShell(t *testing.T) {
	const cmd = "make -j2 | tee log; echo $HOME"
	got, err := Split(cmd, true)
	if want := []string{"/bin/sh", "-c", cmd}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Split(%q, true) = %q, %v; want %q", cmd, got, err, want)
	}
	if _, err := Split(" ", true); err == nil {
		t.Error("Split of a blank command with shell: no error")
	}
}

// TestShellQuoteRoundTrip checks that displayed commands split back to argv.
func TestShellQuoteRoundTrip(t *testing.T) {
	argv := []string{"./b in", "--x", "", "it's", `a"b`, "$HOME", "a|b", "plain-1.0/x=y"}
	words := make([]string, len(argv))
	for i, w := range argv {
		words[i] = quoteWord(w)
	}
	got, err := Split(strings.Join(words, " "), false)
	if err != nil || !slices.Equal(got, argv) {
		t.Errorf("round trip of %q gave %q, %v", argv, got, err)
	}
}

package runner

import (
	"slices"
	"strings"
	"testing"
)

// FuzzSplit checks the word splitter on any command line: it never
// panics, a command it accepts has words, and the words it finds, quoted
// for display (QuoteCommand), split back to the same words unless one
// needs $'...', which Split does not read. With shell set the command is
// passed to the shell untouched.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"./old/bin --x", `echo 'a b' "c d"`, `echo '' ""`, `echo 'it'\''s'`, `echo a\ b \"q\" \\`,
		`echo "\$x \" \\ \n"`, "echo a\\\nb", `grep -E a* [x] ~/f cost$ $ x$/`, `./bench X=1`,
		"a | b", "echo $(date)", "FOO=1 ./bench", `echo 'open`, `echo \`, "echo # c", "\t \t",
		"café 'ü' \"\xff\"", "a\x00b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, command string) {
		argv, err := Split(command, false)
		if shell, serr := Split(command, true); (serr == nil) != (strings.TrimSpace(command) != "") ||
			serr == nil && !slices.Equal(shell, []string{ShellPath, "-c", command}) {
			t.Fatalf("Split(%q, shell) = %q, %v", command, shell, serr)
		}
		if err != nil {
			if msg := err.Error(); msg == "" || strings.Contains(msg, "\n") {
				t.Fatalf("Split(%q): error %q is not one line", command, msg)
			}
			return
		}
		if len(argv) == 0 || isAssignment(argv[0]) {
			t.Fatalf("Split(%q) = %q", command, argv)
		}
		for _, w := range argv {
			if needsEscape(w) {
				return
			}
		}
		line := QuoteCommand(argv)
		again, err := Split(line, false)
		if err != nil || !slices.Equal(again, argv) {
			t.Fatalf("Split(%q) = %q, quoted %q, which splits to %q, %v", command, argv, line, again, err)
		}
	})
}

package runner

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// QuoteCommand renders argv as one shell-quoted line: plain words as they
// are, others in single quotes, and words with control characters or
// invalid UTF-8 in $'...' with escapes, so the line is always one line.
// bash, ksh and zsh read it back as argv; Split does too unless a word
// needed $'...', which it does not know.
func QuoteCommand(argv []string) string {
	words := make([]string, len(argv))
	for i, w := range argv {
		words[i] = quoteWord(w)
	}
	return strings.Join(words, " ")
}

const plainChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-"

func quoteWord(w string) string {
	if w != "" && strings.Trim(w, plainChars) == "" {
		return w
	}
	if !needsEscape(w) {
		return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(w); {
		r, size := utf8.DecodeRuneInString(w[i:])
		switch {
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8.RuneError && size == 1, isControl(r):
			for _, c := range []byte(w[i : i+size]) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		default:
			b.WriteString(w[i : i+size])
		}
		i += size
	}
	b.WriteByte('\'')
	return b.String()
}

func needsEscape(s string) bool {
	return !utf8.ValidString(s) || strings.ContainsFunc(s, isControl)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

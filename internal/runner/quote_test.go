package runner

import (
	"strings"
	"testing"
)

func TestQuoteCommand(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"fb-pair", "--samples", "20"}, "fb-pair --samples 20"},
		{[]string{"sh", "-c", "echo $HOME; x"}, "sh -c 'echo $HOME; x'"},
		{[]string{""}, "''"},
		{[]string{"a'b"}, `'a'\''b'`},
		{[]string{"line\nbreak", "tab\there"}, `$'line\nbreak' $'tab\there'`},
		{[]string{"esc\x1b[0m", "quote'\\"}, `$'esc\x1b[0m' 'quote'\''\'`},
		{[]string{"bad\xffutf8\x01"}, `$'bad\xffutf8\x01'`},
		{[]string{"csi\u009bx"}, `$'csi\xc2\x9bx'`},
	} {
		if got := QuoteCommand(tc.argv); got != tc.want {
			t.Errorf("QuoteCommand(%q) = %s, want %s", tc.argv, got, tc.want)
		}
		if strings.ContainsAny(QuoteCommand(tc.argv), "\n\r\x1b") {
			t.Errorf("QuoteCommand(%q) is not one clean line", tc.argv)
		}
	}
}

package axes

import "fmt"

// Bounds of declared names. The worker protocol,
// custom axes and the Go worker package all check against these.
const (
	MaxNameLen   = 48
	MaxUnitLen   = 24
	MaxSourceLen = 48
)

// ValidName checks a case or axis name: lowercase ASCII, beginning with a
// letter, then letters, digits, '.', '_' or '-', at most MaxNameLen bytes.
func ValidName(s string) error {
	if s == "" || len(s) > MaxNameLen {
		return fmt.Errorf("name %q: 1 to %d characters", s, MaxNameLen)
	}
	if s[0] < 'a' || s[0] > 'z' {
		return fmt.Errorf("name %q: must begin with a lowercase letter", s)
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("name %q: only lowercase letters, digits, '.', '_' and '-'", s)
		}
	}
	return nil
}

// ValidText checks a unit, timing source, scope or attribution: 1 to limit
// bytes of printable ASCII without spaces, commas, quotes or backslashes.
// what names the field in the error.
func ValidText(what, s string, limit int) error {
	if s == "" || len(s) > limit {
		return fmt.Errorf("%s %q: 1 to %d characters", what, s, limit)
	}
	for _, c := range []byte(s) {
		if c <= ' ' || c > '~' || c == ',' || c == '"' || c == '\'' || c == '\\' {
			return fmt.Errorf("%s %q: printable ASCII without spaces, commas, quotes or backslashes", what, s)
		}
	}
	return nil
}

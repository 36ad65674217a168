package importer

import (
	"fmt"
	"strings"
	"unicode"
)

// ParseTags reads --tag KEY=VALUE arguments. A key is non-empty and has no
// space, control character or '='; each key may be given once; the value
// may be empty.
func ParseTags(args []string) (map[string]string, error) {
	if len(args) == 0 {
		return nil, nil
	}
	tags := make(map[string]string, len(args))
	for _, a := range args {
		key, value, ok := strings.Cut(a, "=")
		switch {
		case !ok:
			return nil, fmt.Errorf("--tag %q: want KEY=VALUE", a)
		case key == "" || strings.IndexFunc(key, badKeyRune) >= 0:
			return nil, fmt.Errorf("--tag %q: a key is one word without spaces or control characters", a)
		}
		if _, dup := tags[key]; dup {
			return nil, fmt.Errorf("--tag %s given twice", key)
		}
		tags[key] = value
	}
	return tags, nil
}

func badKeyRune(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }

package importer

import (
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/axes"
)

// Tag limits, the same as the measuring tools' --tag.
const (
	maxTags     = 32
	maxTagValue = 256
)

// ParseTags reads --tag KEY=VALUE arguments by the measuring tools'
// rules: a key is named like an axis (axes.ValidName), given once; a
// value is at most 256 bytes and may be empty; at most 32 tags.
func ParseTags(args []string) (map[string]string, error) {
	if len(args) == 0 {
		return nil, nil
	}
	if len(args) > maxTags {
		return nil, fmt.Errorf("--tag given %d times: at most %d tags", len(args), maxTags)
	}
	tags := make(map[string]string, len(args))
	for _, a := range args {
		key, value, ok := strings.Cut(a, "=")
		if !ok {
			return nil, fmt.Errorf("--tag %q: want KEY=VALUE, e.g. --tag revision=abc123", a)
		}
		if err := axes.ValidName(key); err != nil {
			return nil, fmt.Errorf("--tag %q: key %w", a, err)
		}
		if len(value) > maxTagValue {
			return nil, fmt.Errorf("--tag %q: value longer than %d bytes", key, maxTagValue)
		}
		if _, dup := tags[key]; dup {
			return nil, fmt.Errorf("--tag %q given twice", key)
		}
		tags[key] = value
	}
	return tags, nil
}

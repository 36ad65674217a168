package cli

import (
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/axes"
)

// tagFlag is --tag KEY=VALUE: the user's own fingerprint fields, recorded
// in the run and matched by baseline comparisons.
func tagFlag() ucli.Flag {
	return &ucli.StringSliceFlag{Name: "tag", Usage: "KEY=VALUE recorded in the run's fingerprint (repeatable): revision, compiler flags, anything a baseline must match; keys as axis names (lowercase letters, digits, '.', '_', '-')"}
}

// maxTags bounds the tags one run records.
const maxTags = 32

// tagsOf reads --tag values into a map; a key given twice, a missing '='
// or a bad key is a usage error.
func tagsOf(values []string) (map[string]string, error) {
	if len(values) == 0 {
		return nil, nil
	}
	if len(values) > maxTags {
		return nil, usageErrorf("--tag given %d times: at most %d tags", len(values), maxTags)
	}
	tags := make(map[string]string, len(values))
	for _, v := range values {
		key, value, ok := strings.Cut(v, "=")
		if !ok {
			return nil, usageErrorf("--tag %q: want KEY=VALUE, e.g. --tag revision=abc123", v)
		}
		if err := axes.ValidName(key); err != nil {
			return nil, usageErrorf("--tag %q: key %v", v, err)
		}
		if len(value) > 256 {
			return nil, usageErrorf("--tag %q: value longer than 256 bytes", key)
		}
		if _, dup := tags[key]; dup {
			return nil, usageErrorf("--tag %q given twice", key)
		}
		tags[key] = value
	}
	return tags, nil
}

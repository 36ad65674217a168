package cli

import (
	"fmt"
	"strings"
	"testing"
)

func TestTagsOf(t *testing.T) {
	got, err := tagsOf([]string{"rev=abc", "cc.flags=-O2 -g", "empty="})
	if err != nil || len(got) != 3 || got["cc.flags"] != "-O2 -g" || got["empty"] != "" {
		t.Errorf("%v, %v", got, err)
	}
	if got, err := tagsOf(nil); got != nil || err != nil {
		t.Errorf("no tags: %v, %v", got, err)
	}
	many := make([]string, 33)
	for i := range many {
		many[i] = fmt.Sprintf("k%d=v", i)
	}
	for _, bad := range [][]string{{"rev"}, {"=x"}, {"a b=1"}, {"Rev=1"}, {"a=1", "a=2"}, {"a=" + strings.Repeat("x", 257)}, many} {
		if _, err := tagsOf(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

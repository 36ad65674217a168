package analyze

import (
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// TestLinkWarning: a warning when exactly one case starts its program
// through a symbolic link, naming both; none when both start theirs the
// same way or a run did not record them.
func TestLinkWarning(t *testing.T) {
	linked := ndjson.Case{Name: "old", Program: &ndjson.Program{Path: "/usr/bin/python3", Link: "/usr/bin/python3.11"}}
	named := ndjson.Case{Name: "new", Program: &ndjson.Program{Path: "/opt/py/python3.11"}}
	otherLink := ndjson.Case{Name: "venv", Program: &ndjson.Program{Path: "/v/bin/python", Link: "/usr/bin/python3.11"}}
	for _, c := range []struct {
		ref, con ndjson.Case
		want     string
	}{
		{linked, named, `"old" starts /usr/bin/python3, a symbolic link to /usr/bin/python3.11, and "new" starts /opt/py/python3.11 by its own name`},
		{named, linked, `"old" starts /usr/bin/python3, a symbolic link to /usr/bin/python3.11, and "new" starts /opt/py/python3.11 by its own name`},
		{linked, otherLink, ""},
		{named, named, ""},
		{ndjson.Case{Name: "a"}, named, ""},
		{linked, ndjson.Case{Name: "b"}, ""},
	} {
		got := linkWarning(c.ref, c.con)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s vs %s: %q, want %q", c.ref.Name, c.con.Name, got, c.want)
		}
	}
}

// TestCacheWarning: a warning when the cases start different files and
// the run left the page cache as found (kept, or a record from before the
// drop); none when it dropped them, both start one file, or a program is
// not recorded.
func TestCacheWarning(t *testing.T) {
	a := ndjson.Case{Name: "old", Program: &ndjson.Program{Path: "/b/old.test"}}
	b := ndjson.Case{Name: "new", Program: &ndjson.Program{Path: "/b/new.test"}}
	link := ndjson.Case{Name: "link", Program: &ndjson.Program{Path: "/b/l", Link: "/b/old.test"}}
	keep, drop := &ndjson.PageCache{Policy: ndjson.PageCacheKeep}, &ndjson.PageCache{Policy: ndjson.PageCacheDrop}
	for _, c := range []struct {
		pc       *ndjson.PageCache
		ref, con ndjson.Case
		want     string
	}{
		{keep, a, b, `"old" and "new" start different files (/b/old.test and /b/new.test), left in the page cache as the run found them`},
		{nil, a, b, `"old" and "new" start different files`},
		{drop, a, b, ""},
		{keep, a, a, ""},
		{keep, a, link, ""},
		{keep, a, ndjson.Case{Name: "sh"}, ""},
	} {
		got := cacheWarning(c.pc, c.ref, c.con, nil)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%v %s vs %s: %q, want %q", c.pc, c.ref.Name, c.con.Name, got, c.want)
		}
		if got != "" && !strings.Contains(got, "KeepPageCache drop") {
			t.Errorf("the remedy is not spelled: %q", got)
		}
	}
}

package claim

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestContentRoundTrip(t *testing.T) {
	c := Content{PID: 4242, Tool: "fb-pair", Start: time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC),
		Scope: ScopeCPUs, CPUs: []int{2, 3}, Command: `fb-pair -- 'sleep 1' 'it'\''s'`, Version: Version}
	text := string(c.Format())
	want := "pid=4242\ntool=fb-pair\nstart=2025-03-04T05:06:07Z\nscope=cpus\ncpus=2,3\n" +
		"command=fb-pair -- 'sleep 1' 'it'\\''s'\nversion=1\n"
	if text != want {
		t.Fatalf("Format:\n%s\nwant:\n%s", text, want)
	}
	got := ParseContent([]byte(text))
	if got.PID != c.PID || got.Tool != c.Tool || !got.Start.Equal(c.Start) || got.Scope != c.Scope ||
		FormatCPUs(got.CPUs) != "2,3" || got.Command != c.Command || got.Version != 1 {
		t.Fatalf("ParseContent = %+v, want %+v", got, c)
	}
}

func TestParseContentToleratesGarbage(t *testing.T) {
	for _, text := range []string{
		"",
		"\x00\x01\x02\xff\xfe",
		"pid=-3\ncpus=9-2\nstart=yesterday\nversion=x",
		"no equals sign here\n=\n==\nunknown=key",
		"pid=99999999999999999999999",
		strings.Repeat("command=x", 100000),
	} {
		c := ParseContent([]byte(text))
		if c.PID != 0 || c.CPUs != nil || !c.Start.IsZero() || c.Version != 0 {
			t.Errorf("ParseContent(%.20q) = %+v, want nothing", text, c)
		}
	}
	c := ParseContent([]byte("tool=\x1b[2Jevil\ncommand=rm -rf / \x07\n"))
	if strings.ContainsAny(c.Tool+c.Command, "\x1b\x07") || c.Tool != `\x1b[2Jevil` {
		t.Errorf("control characters survived parsing: %+v", c)
	}
	if len(ParseContent(bytes.Repeat([]byte("tool=aaaa"), 2000)).Tool) > 300 {
		t.Errorf("tool not clipped")
	}
}

func TestDescribe(t *testing.T) {
	c := Content{PID: 7, Tool: "stress", Scope: ScopeMachine, Start: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), Command: "stress -c 2"}
	if got, want := c.Describe(), "pid 7 stress (machine, since 2025-01-02T03:04:05Z): stress -c 2"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	c = Content{PID: 8, Scope: ScopeCPUs, CPUs: []int{1, 3}}
	if got, want := c.Describe(), "pid 8 (cpus 1,3)"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
}

// FuzzParseContent: any bytes parse, and what comes out is printable on
// one line.
func FuzzParseContent(f *testing.F) {
	f.Add([]byte("pid=1\ntool=x\nstart=2025-01-01T00:00:00Z\nscope=cpus\ncpus=0-3\ncommand=a b\nversion=1\n"))
	f.Add([]byte("cpus=0-65535"))
	f.Add([]byte("tool=\x1b\x9b\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := ParseContent(data)
		line := c.Describe()
		if strings.ContainsAny(line, "\n\r\x1b\x00") {
			t.Fatalf("Describe has control characters: %q", line)
		}
		text := c.Format()
		if len(text) > MaxContent {
			return // a reader sees only the start
		}
		if again := ParseContent(text); again.PID != c.PID || !slices.Equal(again.CPUs, c.CPUs) {
			t.Fatalf("Format/Parse changed %.300q into %.300q", text, again.Format())
		}
	})
}

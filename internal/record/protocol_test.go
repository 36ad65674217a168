package record

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestParseAccepts(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Msg
	}{
		{"flybench-span 1", Msg{Kind: KindHeader}},
		{"benchmark quick-request", Msg{Kind: KindBenchmark, Name: []byte("quick-request")}},
		{"begin 42 db.query", Msg{Kind: KindBegin, ID: []byte("42"), Name: []byte("db.query")}},
		{"end 42 timeout", Msg{Kind: KindEnd, ID: []byte("42"), Outcome: Timeout}},
		{"span frame 16666667 success", Msg{Kind: KindSpan, Name: []byte("frame"), WallNS: 16666667, Outcome: Success}},
		{"span x 0 cancelled", Msg{Kind: KindSpan, Name: []byte("x"), Outcome: Cancelled}},
		{"span x 999999999999999999 failure", Msg{Kind: KindSpan, Name: []byte("x"), WallNS: 999999999999999999, Outcome: Failure}},
	} {
		got, err := Parse([]byte(tc.line))
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		if got.Kind != tc.want.Kind || !bytes.Equal(got.Name, tc.want.Name) || !bytes.Equal(got.ID, tc.want.ID) ||
			got.WallNS != tc.want.WallNS || got.Outcome != tc.want.Outcome {
			t.Errorf("%q: got %+v, want %+v", tc.line, got, tc.want)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	long := strings.Repeat("n", MaxToken+1)
	for _, tc := range []struct{ line, msg string }{
		{"", `unknown message ""`},
		{"spans x 1 success", `unknown message "spans"`},
		{"flybench-span 2", `protocol version "2" is not supported`},
		{"span x 1", `want "span NAME WALL_NS OUTCOME"`},
		{"span x 1 success extra", `want "span NAME WALL_NS OUTCOME"`},
		{"span  x 1 success", `want "span NAME WALL_NS OUTCOME"`},
		{"begin  x", "empty span id"},
		{"span x -1 success", `WALL_NS "-1"`},
		{"span x 1e3 success", `WALL_NS "1e3"`},
		{"span x 1000000000000000000 success", "at most 18 digits"},
		{"span x 1 ok", `outcome "ok": want success, failure, timeout or cancelled`},
		{"span x 1 success\r", `outcome "success\r"`},
		{"span " + long + " 1 success", "benchmark name longer than 64 bytes"},
		{"span caf\xc3\xa9 1 success", "holds byte 0xc3"},
		{"span a\tb 1 success", "holds byte 0x09"},
		{"begin 1", `want "begin ID NAME"`},
		{"begin 1 x y", `want "begin ID NAME"`},
		{"end 1", `want "end ID OUTCOME"`},
		{"end 1 done", `outcome "done"`},
		{"benchmark", `want "benchmark NAME"`},
		{"benchmark a b", `want "benchmark NAME"`},
	} {
		_, err := Parse([]byte(tc.line))
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: error %v, want one containing %q", tc.line, err, tc.msg)
		}
	}
}

// The span path is the bulk of a recording: it must not allocate.
func TestParseSpanDoesNotAllocate(t *testing.T) {
	line := []byte("span quick 12345 success")
	if n := testing.AllocsPerRun(100, func() { Parse(line) }); n != 0 {
		t.Fatalf("%v allocations per span line", n)
	}
}

func FuzzSpanLine(f *testing.F) {
	for _, s := range []string{"flybench-span 1", "benchmark a", "begin 1 a", "end 1 success", "span a 10 failure",
		"span a 1 timeout", "span \x00 1 success", "end  success", "span a 0123 cancelled"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, err := Parse(line)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || strings.ContainsRune(err.Error(), '\n') {
				t.Fatalf("%q: error %q is not a one-line ParseError", line, err)
			}
			return
		}
		for _, tok := range [][]byte{m.Name, m.ID} {
			if len(tok) > MaxToken || bytes.ContainsAny(tok, " \n\t") {
				t.Fatalf("%q: token %q accepted", line, tok)
			}
		}
		if m.WallNS < 0 || m.Outcome >= numOutcomes {
			t.Fatalf("%q: parsed %+v", line, m)
		}
		if m.Kind == KindSpan {
			f := strings.Split(string(line), " ")
			wall, err := strconv.ParseInt(f[2], 10, 64)
			if len(f) != 4 || f[1] != string(m.Name) || err != nil || wall != m.WallNS || f[3] != m.Outcome.String() {
				t.Fatalf("%q: parsed as %+v", line, m)
			}
		}
	})
}

package wproto

import (
	"errors"
	"io"
	"reflect"
	"testing"
)

// FuzzHandshake checks that the handshake parser never panics, that its
// errors are syntax errors or a premature end, and that what it accepts
// formats back to text it accepts as the same handshake.
func FuzzHandshake(f *testing.F) {
	for _, s := range []string{
		goodHandshake,
		"flybench-worker 1\ncase a\nready\n",
		"flybench-worker 2\ncase a\nready\n",
		"flybench-worker 1\ncase a\ntimer source=s resolution_ns=1e-3\naxis x unit=u semantics=absolute\nready\n",
		"flybench-worker 1\ncase a\naxis x unit=u primary=1 semantics=elapsed source=s resolution=1\nready\n",
		"flybench-worker 1\r\n", "\n", "flybench-worker 1\ncase a\nready",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		h, err := ParseHandshake(text)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("%q: unexpected error type %T: %v", text, err, err)
			}
			return
		}
		again, err := ParseHandshake(h.String())
		if err != nil || !reflect.DeepEqual(again, h) {
			t.Fatalf("%q formats as %q, which parses as %+v, %v", text, h.String(), again, err)
		}
	})
}

// FuzzAnswer does the same for answers and requests.
func FuzzAnswer(f *testing.F) {
	for _, s := range []string{
		"done sum 1000 elapsed_ns=2104", "done sum 2 allocs=10:310 live=4096 t=nan elapsed_ns=7",
		"done sum 1 elapsed_ns=-0", "error sum out of cheese", "error sum x", "run sum 5", "quit",
		"done sum 1 allocs=99999999999999999999:1", "done sum 1 elapsed_ns=1e-320",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		d, err := ParseAnswer(line, testAxes)
		var fl *Failure
		var se *SyntaxError
		switch {
		case errors.As(err, &fl):
			if _, err := ParseAnswer(fl.String(), testAxes); !errors.As(err, new(*Failure)) {
				t.Fatalf("%q: failure %q does not parse back: %v", line, fl.String(), err)
			}
		case err != nil && !errors.As(err, &se):
			t.Fatalf("%q: unexpected error type %T: %v", line, err, err)
		case err == nil:
			again, err := ParseAnswer(d.String(), testAxes)
			if err != nil || !reflect.DeepEqual(again, d) {
				t.Fatalf("%q formats as %q, which parses as %+v, %v", line, d.String(), again, err)
			}
		}
		if r, quit, err := ParseRequest(line); err == nil && !quit {
			if again, _, err := ParseRequest(r.String()); err != nil || again != r {
				t.Fatalf("request %q formats as %q: %v", line, r.String(), err)
			}
		}
		if rep, err := ParseReport([]byte(line + "\n")); err == nil {
			if again, err := ParseReport([]byte(rep.String())); err != nil || !reflect.DeepEqual(again, rep) {
				t.Fatalf("report %q formats as %q: %v", line, rep.String(), err)
			}
		}
	})
}

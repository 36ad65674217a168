package recorder_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/flybench/flybench/recorder"
)

// A program registers its kinds of work, starts the recorder, wraps each
// piece of work in Begin and Finish, and stops the recorder at the end;
// here the recording goes into a buffer and the example prints its record
// types and the closing tallies.
func Example() {
	var out bytes.Buffer
	rec := recorder.New(recorder.Options{Out: &out, Retention: recorder.FirstN, Capacity: 2})
	lookup := rec.Register("lookup")
	if err := rec.Start(); err != nil {
		panic(err)
	}
	for _, key := range []string{"a", "b", "", "c"} {
		span := rec.Begin(lookup)
		if err := find(key); err != nil {
			span.Finish(recorder.Failure)
			continue
		}
		span.Finish(recorder.Success)
	}
	if err := rec.Stop(); err != nil {
		panic(err)
	}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		line := sc.Text()
		kind := strings.Split(line, `"`)[3]
		fmt.Println(kind)
		if kind == "recording_end" {
			fmt.Println(line[strings.Index(line, `"benchmarks"`):])
		}
	}
	// Output:
	// recording
	// span
	// span
	// recording_end
	// "benchmarks":[{"index":0,"observed":4,"retained":2,"omitted":2,"unfinished":0,"outcomes":{"success":3,"failure":1,"timeout":0,"cancelled":0}}]}
}

func find(key string) error {
	if key == "" {
		return errors.New("empty key")
	}
	return nil
}

package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// tallies reads a recording and returns its recording record and the
// recording_end record's tallies, after checking every line with
// pkg/ndjson's reader.
func tallies(t *testing.T, stream []byte) (ndjson.Recording, []ndjson.BenchmarkTally, []ndjson.Span) {
	t.Helper()
	rd := ndjson.NewReader(bytes.NewReader(stream), "recordsvc")
	var head ndjson.Recording
	var end ndjson.RecordingEnd
	var spans []ndjson.Span
	for {
		l, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch l.Type {
		case ndjson.TypeRecording:
			err = rd.Decode(l, &head)
		case ndjson.TypeRecordingEnd:
			err = rd.Decode(l, &end)
		case ndjson.TypeSpan:
			var s ndjson.Span
			err = rd.Decode(l, &s)
			spans = append(spans, s)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if head.RunID == "" || end.RunID != head.RunID {
		t.Fatalf("recording %q, recording_end %q", head.RunID, end.RunID)
	}
	return head, end.Benchmarks, spans
}

// 60 requests over six paths: ten each, every one finished, one of the
// flaky path's ten failed (the seventh) and every span retained.
func checkRecording(t *testing.T, stream []byte) {
	t.Helper()
	head, ends, spans := tallies(t, stream)
	if len(head.Benchmarks) != 6 || head.Benchmarks[5].Name != "occasionally failing request" {
		t.Fatalf("benchmarks %+v", head.Benchmarks)
	}
	for i, e := range ends {
		failures := int64(0)
		if i == 5 {
			failures = 1
		}
		if e.Observed != 10 || e.Retained != 10 || e.Unfinished != 0 || e.Outcomes["failure"] != failures ||
			e.Outcomes["success"] != 10-failures {
			t.Errorf("%s: %+v", head.Benchmarks[i].Name, e)
		}
	}
	if len(spans) != 60 {
		t.Errorf("%d spans, want 60", len(spans))
	}
}

func TestRecordsvcToStdout(t *testing.T) {
	var out, errs bytes.Buffer
	code := run(context.Background(), []string{"-requests", "60", "-concurrency", "3", "-axes", "thread_cpu,process_cpu"},
		&out, &errs, func(string) string { return "" })
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	checkRecording(t, out.Bytes())
	if !strings.Contains(errs.String(), "recordsvc: 60 requests") || !strings.Contains(errs.String(), "127.0.0.1:") {
		t.Errorf("stderr %q", errs.String())
	}
}

// With FLYBENCH_RECORD_SOCKET set, the stream goes to that Unix socket
// and nothing to standard output.
func TestRecordsvcToSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Skipf("no Unix sockets here: %v", err)
	}
	defer ln.Close()
	got := make(chan []byte, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(c)
		got <- b
	}()
	var out, errs bytes.Buffer
	env := func(k string) string {
		if k == socketEnv {
			return path
		}
		return ""
	}
	if code := run(context.Background(), []string{"-requests", "60", "-concurrency", "2", "-axes", "none"}, &out, &errs, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	checkRecording(t, <-got)
	if out.Len() != 0 {
		t.Errorf("stdout got %d bytes", out.Len())
	}
}

func TestRecordsvcBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-requests", "0"}, {"-retention", "all"}, {"-axes", "cycles"}, {"extra"}} {
		var out, errs bytes.Buffer
		if code := run(context.Background(), args, &out, &errs, func(string) string { return "" }); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
		if !strings.HasPrefix(errs.String(), "recordsvc: error: ") || strings.Count(errs.String(), "\n") != 1 || out.Len() != 0 {
			t.Errorf("%v: stderr %q stdout %d bytes", args, errs.String(), out.Len())
		}
	}
	var errs bytes.Buffer
	env := func(string) string { return filepath.Join(t.TempDir(), "absent.sock") }
	if code := run(context.Background(), nil, io.Discard, &errs, env); code != 1 || !strings.Contains(errs.String(), socketEnv) {
		t.Errorf("absent socket: exit %d, %q", code, errs.String())
	}
}

// A signal (a cancelled context) stops the client; the recording still
// ends with its recording_end record.
func TestRecordsvcInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errs bytes.Buffer
	if code := run(ctx, []string{"-requests", "60"}, &out, &errs, func(string) string { return "" }); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	_, ends, _ := tallies(t, out.Bytes())
	if len(ends) != 6 {
		t.Errorf("%d tallies", len(ends))
	}
}

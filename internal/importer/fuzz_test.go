package importer

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// FuzzImport: any bytes are either refused with an InputError and no
// records, or give a run record, its samples and an end record whose
// counts agree, written as a stream the flybench reader reads back whole.
// The corpus is every file in testdata.
func FuzzImport(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Import("hyperfine", "in.json", data, Options{})
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) || res != nil {
				t.Fatalf("refusal %T %v with result %v", err, err, res)
			}
			return
		}
		checkRecords(t, res.Records)
		checkReadable(t, encode(t, res.Records), len(res.Records))
	})
}

// checkRecords checks the shape of an imported run.
func checkRecords(t *testing.T, recs []ndjson.Record) {
	run, ok1 := recs[0].(*ndjson.Run)
	end, ok2 := recs[len(recs)-1].(*ndjson.End)
	if !ok1 || !ok2 || len(end.Samples) != len(run.Cases) || len(run.Cases) == 0 {
		t.Fatalf("records %T ... %T", recs[0], recs[len(recs)-1])
	}
	total := 0
	for _, n := range end.Samples {
		if n < 1 || n < end.Units {
			t.Fatalf("end %+v", *end)
		}
		total += n
	}
	if total != len(recs)-2 {
		t.Fatalf("%d samples, end counts %d", len(recs)-2, total)
	}
	for i, r := range recs[1 : len(recs)-1] {
		s := r.(*ndjson.Sample)
		if s.Seq != i || s.WallNS < 0 || s.Iter != 1 || s.OpNS != float64(s.WallNS) || s.Case >= len(run.Cases) {
			t.Fatalf("sample %+v", *s)
		}
	}
}

// checkReadable reads a written stream back with the flybench reader.
func checkReadable(t *testing.T, stream []byte, n int) {
	r := ndjson.NewReader(bytes.NewReader(stream), "out")
	for i := 0; ; i++ {
		l, err := r.Next()
		if err == io.EOF {
			if i != n {
				t.Fatalf("read %d records back, wrote %d", i, n)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := r.Decode(l, &v); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzImportFormats: any bytes, read as Go benchmark output, Google
// Benchmark JSON and pytest-benchmark JSON, are refused with an
// InputError and no records, or give runs each of a run record, samples
// and an end record whose counts agree, read back whole. The corpus is
// the testdata files of those formats.
func FuzzImportFormats(f *testing.F) {
	for _, glob := range []string{"gobench-*.txt", "gbench-*.json", "pytest-*.json"} {
		files, _ := filepath.Glob(filepath.Join("testdata", glob))
		for _, name := range files {
			data, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range []string{"gobench", "gbench", "pytest-benchmark"} {
			res, err := Import(format, "in", data, Options{})
			if err != nil {
				var ie *InputError
				if !errors.As(err, &ie) || res != nil {
					t.Fatalf("%s: refusal %T %v with result %v", format, err, err, res)
				}
				continue
			}
			checkRuns(t, res.Records)
			checkReadable(t, encode(t, res.Records), len(res.Records))
		}
	})
}

// checkRuns checks that records are runs, each its run record, its
// samples and an end record counting them.
func checkRuns(t *testing.T, recs []ndjson.Record) {
	for len(recs) > 0 {
		run, ok := recs[0].(*ndjson.Run)
		if !ok || len(run.Cases) == 0 {
			t.Fatalf("a run begins with %T", recs[0])
		}
		n := 1
		for ; n < len(recs); n++ {
			if _, ok := recs[n].(*ndjson.Sample); !ok {
				break
			}
		}
		end, ok := recs[min(n, len(recs)-1)].(*ndjson.End)
		if !ok || n == len(recs) || end.RunID != run.RunID || len(end.Samples) != len(run.Cases) {
			t.Fatalf("run %s: no end record after its %d samples", run.RunID, n-1)
		}
		total := 0
		for _, c := range end.Samples {
			total += c
		}
		if total != n-1 {
			t.Fatalf("%d samples, end counts %d", n-1, total)
		}
		recs = recs[n+1:]
	}
}

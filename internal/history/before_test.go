package history

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

func TestBefore(t *testing.T) {
	for name, dsn := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t, dsn)
			var runs []fixtureRun
			for i := range 6 {
				runs = append(runs, fixtureRun{id: fmt.Sprintf("r%d", i), started: t0.Add(time.Duration(i) * time.Second),
					tags: map[string]string{"revision": fmt.Sprintf("rev%d", i)}, medians: []float64{100 + float64(i), 50}})
			}
			entries := addRuns(t, s, "s", runs...)
			// The newest three before r4: r1, r2, r3, oldest first; r4 itself and r5 are later.
			r4 := entries[4].Run
			got, err := s.Before(&r4, "c0", false, 3, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 3 || got[0].RunID != "r1" || got[2].RunID != "r3" || got[2].Value != 103 || got[2].Revision != "rev3" || got[2].N != 10 {
				t.Fatalf("before r4: %+v", got)
			}
			// Another machine class has no history here.
			other := r4
			other.Host.CPUs = 4
			if got, err := s.Before(&other, "c0", false, 3, nil); err != nil || len(got) != 0 {
				t.Fatalf("another class: %+v, %v", got, err)
			}
			// A new run, not stored, started last: every stored run counts, up to n.
			late := ndjson.Run{RunID: "new", Started: t0.Add(time.Hour).Format(time.RFC3339Nano), Host: r4.Host}
			if got, err := s.Before(&late, "c1", false, 10, nil); err != nil || len(got) != 6 {
				t.Fatalf("new run: %+v, %v", got, err)
			}
			// Only the runs with every tag asked for.
			if got, err := s.Before(&late, "c1", false, 10, map[string]string{"revision": "rev2"}); err != nil || len(got) != 1 || got[0].RunID != "r2" {
				t.Fatalf("where revision=rev2: %+v, %v", got, err)
			}
		})
	}
}

func TestOpenExisting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.db")
	_, err := OpenExisting(path)
	var de *DSNError
	if !errors.As(err, &de) {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("OpenExisting created the file")
	}
	open(t, path)
	s, err := OpenExisting("sqlite:" + path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}

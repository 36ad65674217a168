package changepoint

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// sameChanges reports where a and b differ, "" when they are equal
// (every field; NaN ends of an interval equal NaN).
func sameChanges(a, b []Change) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d change points against %d: %v and %v", len(a), len(b), indices(a), indices(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		for k := range 2 {
			if math.IsNaN(x.CI[k]) && math.IsNaN(y.CI[k]) {
				x.CI[k], y.CI[k] = 0, 0
			}
		}
		if !reflect.DeepEqual(x, y) {
			return fmt.Sprintf("change %d: %+v against %+v", i, a[i], b[i])
		}
	}
	return ""
}

func indices(cs []Change) []int {
	var out []int
	for _, c := range cs {
		out = append(out, c.Index)
	}
	return out
}

// TestExtendEqualsSegment: on the labelled set, reading a series one
// point at a time (Extend after every appended point) gives, at every
// length, exactly what Segment gives for the whole prefix, and each
// append re-examines at most the last window.
func TestExtendEqualsSegment(t *testing.T) {
	per := 3
	if testing.Short() {
		per = 1
	}
	opt := DefaultOptions
	opt.Window = 24        // several windows in every family's series, the 15-point one excepted
	opt.Permutations = 199 // the level halved once at most: a faster test, the same machinery
	for fi, fam := range families {
		for s := range uint64(per) {
			x, _ := fam.make(rand.New(rand.NewPCG(s, uint64(fi))))
			opt.Seed = s + 1
			var inc Segmentation
			for n := 1; n <= len(x); n++ {
				inc = inc.Extend(x[:n], opt)
				if inc.N != n || n-inc.Open > opt.Window {
					t.Fatalf("%s, series %d, %d points: read %d, re-examined from %d", fam.name, s, n, inc.N, inc.Open)
				}
				if d := sameChanges(inc.Changes, Segment(x[:n], opt).Changes); d != "" {
					t.Fatalf("%s, series %d, %d points: incremental and full differ: %s", fam.name, s, n, d)
				}
			}
		}
	}
}

// TestSettledStay: change points of windows that ended before the last
// point are kept as they are when points are appended, whatever the new
// points are.
func TestSettledStay(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	x := step(step(noisy(rng, 120, 0.01), 30, 0.05), 80, -0.05)
	seg := Segment(x[:100], DefaultOptions)
	if seg.Settled == 0 {
		t.Fatalf("no settled change point in %v (open from %d)", indices(seg.Changes), seg.Open)
	}
	// Whatever follows, even a wild jump, leaves the settled ones.
	y := append(x[:100:100], 5, 5, 5, 5, 5)
	ext := seg.Extend(y, DefaultOptions)
	for i := range seg.Settled {
		if ext.Changes[i].Index != seg.Changes[i].Index || ext.Changes[i].P != seg.Changes[i].P {
			t.Errorf("settled change %d moved: %+v to %+v", i, seg.Changes[i], ext.Changes[i])
		}
	}
	if d := sameChanges(ext.Changes, Detect(y, DefaultOptions)); d != "" {
		t.Errorf("extended and full differ: %s", d)
	}
	if last := ext.Changes[len(ext.Changes)-1]; last.Index != 100 {
		t.Errorf("the jump at 100 is not the last change point: %v", indices(ext.Changes))
	}
}

// TestWholeSeriesWindow: Window 0 reads the series in one window.
func TestWholeSeriesWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	x := step(noisy(rng, 90, 0.01), 60, 0.05)
	opt := DefaultOptions
	opt.Window = 0
	seg := Segment(x, opt)
	if seg.Open != 0 || seg.Settled != 0 || len(seg.Changes) != 1 || seg.Changes[0].Index != 60 {
		t.Errorf("%+v", seg)
	}
}

// revisionFingerprint is the SHA-256 of what Segment finds on
// fingerprintSeries at Revision; TestRevision fails when it changes.
var revisionFingerprint = map[int]string{2: "5b15af836c108f44e3d39f99276f35805ce9b8c3abdfe5bf321383589f3735ba"}

// TestRevision: what Segment returns on one series of every family of the
// labelled set is what this Revision recorded. A change to the search
// fails here until Revision is raised (stored segmentations of the old
// revision are then searched again, not extended) and the new
// fingerprint recorded.
func TestRevision(t *testing.T) {
	h := sha256.New()
	for fi, fam := range families {
		x, _ := fam.make(rand.New(rand.NewPCG(7, uint64(fi))))
		for _, c := range Segment(x, DefaultOptions).Changes {
			fmt.Fprintf(h, "%s %d %v %v %v %v %v %v\n", fam.name, c.Index, c.Before, c.After, c.P, c.Q, c.CI, c.Range)
		}
	}
	got := hex.EncodeToString(h.Sum(nil))
	if want := revisionFingerprint[Revision]; got != want {
		t.Errorf("Segment's results at revision %d have fingerprint %s, recorded %q: if the search changed, raise Revision and record the new fingerprint", Revision, got, want)
	}
}

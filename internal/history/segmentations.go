package history

import (
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/flybench/flybench/internal/changepoint"
	"github.com/flybench/flybench/pkg/ndjson"
)

// A level series' change points are kept in the store (table
// segmentations), one changepoint.Segmentation per series and detector
// settings, so that show, after runs were appended, extends the search
// over the new points (changepoint.Segmentation.Extend re-examines the
// last window only) instead of searching the whole series again. The
// result is the same either way (Extend equals Segment exactly); what is
// kept only saves the time.
//
// A kept segmentation is used only for the points it was found in: it
// records how many points it read and a SHA-256 of their run ids and
// values, and the series must begin with exactly those. A run added with
// an earlier start than the newest, or a filter that selects other runs,
// is a different prefix: that series is searched whole and kept anew.
// Series shown in part (--last below their total) are searched as shown
// and not kept.

// KeepError is a show whose series are complete but whose change points
// could not be kept for the next show (a store opened read-only, say).
type KeepError struct{ Err error }

func (e *KeepError) Error() string {
	return fmt.Sprintf("change points not kept for the next show: %v", e.Err)
}

func (e *KeepError) Unwrap() error { return e.Err }

// keptSegmentation is a row of segmentations.
type keptSegmentation struct {
	n          int
	pointsHash string
	seg        changepoint.Segmentation
}

// keptChange is a change point as the segmentations table keeps it: JSON
// has no NaN, so an interval's end that is NaN is null.
type keptChange struct {
	Index  int         `json:"index"`
	Before float64     `json:"before"`
	After  float64     `json:"after"`
	P      float64     `json:"p"`
	Q      float64     `json:"q"`
	CI     [2]*float64 `json:"ci"`
	Range  [2]int      `json:"range"`
}

// segmentationKey names the segmentation of one series at settings opt:
// the series (metric, case, class, tag conditions), the settings, the
// detector's revision and the machine's architecture (whose floating
// point a search's last digits may depend on), hashed.
func segmentationKey(sr ndjson.Series, opt changepoint.Options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "revision=%d arch=%s metric=%q case=%q class=%q", changepoint.Revision, runtime.GOARCH, sr.Metric, sr.Case, sr.Class)
	for _, k := range slices.Sorted(maps.Keys(sr.Where)) {
		fmt.Fprintf(&b, " tag.%q=%q", k, sr.Where[k])
	}
	fmt.Fprintf(&b, " level=%v permutations=%d min=%d window=%d seed=%d", opt.Level, opt.Permutations, opt.MinSize, opt.Window, opt.Seed)
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

// pointsHasher hashes points one at a time: each point's run id and
// value.
type pointsHasher struct {
	h   hash.Hash
	buf [8]byte
}

func newPointsHasher() *pointsHasher { return &pointsHasher{h: sha256.New()} }

func (p *pointsHasher) add(pt ndjson.SeriesPoint) {
	binary.LittleEndian.PutUint64(p.buf[:], uint64(len(pt.RunID)))
	p.h.Write(p.buf[:])
	p.h.Write([]byte(pt.RunID))
	binary.LittleEndian.PutUint64(p.buf[:], math.Float64bits(pt.Value))
	p.h.Write(p.buf[:])
}

// sum is the hash of the points added so far; adding may go on.
func (p *pointsHasher) sum() string { return hex.EncodeToString(p.h.Sum(nil)) }

// segmentWithKept finds the change points of the series sr (whose values
// are x) at opt: by extending the kept segmentation when the series
// begins with the points it was found in, by a whole search otherwise;
// the new one is kept unless nothing changed. A failure to read or keep
// it is returned as a *KeepError beside the change points, which are
// right either way.
func (s *Store) segmentWithKept(sr ndjson.Series, x []float64, opt changepoint.Options) (changepoint.Segmentation, error) {
	key := segmentationKey(sr, opt)
	kept, found, rerr := s.keptSegmentation(key)
	hasher := newPointsHasher()
	resume := changepoint.Segmentation{}
	for i, p := range sr.Points {
		hasher.add(p)
		if found && i == kept.n-1 && hasher.sum() == kept.pointsHash {
			resume = kept.seg
		}
	}
	seg := resume.Extend(x, opt)
	if rerr != nil {
		return seg, &KeepError{Err: rerr}
	}
	all := hasher.sum()
	if found && kept.n == len(x) && kept.pointsHash == all {
		return seg, nil
	}
	if err := s.keepSegmentation(key, sr, seg, all); err != nil {
		return seg, &KeepError{Err: err}
	}
	return seg, nil
}

// keptSegmentation reads the segmentation kept under key, if any.
func (s *Store) keptSegmentation(key string) (keptSegmentation, bool, error) {
	var k keptSegmentation
	var changes string
	err := s.db.QueryRow(s.dialect.bind(`SELECT n, points_hash, open, settled, changes FROM segmentations WHERE key = ?`), key).
		Scan(&k.n, &k.pointsHash, &k.seg.Open, &k.seg.Settled, &changes)
	if errors.Is(err, sql.ErrNoRows) {
		return k, false, nil
	}
	if err != nil {
		return k, false, fmt.Errorf("read kept change points: %w", err)
	}
	var cs []keptChange
	if err := json.Unmarshal([]byte(changes), &cs); err != nil {
		return k, false, fmt.Errorf("read kept change points: %w", err)
	}
	for _, c := range cs {
		ch := changepoint.Change{Index: c.Index, Before: c.Before, After: c.After, P: c.P, Q: c.Q, CI: [2]float64{math.NaN(), math.NaN()}, Range: c.Range}
		for i, v := range c.CI {
			if v != nil {
				ch.CI[i] = *v
			}
		}
		k.seg.Changes = append(k.seg.Changes, ch)
	}
	k.seg.N = k.n
	// A row that does not describe a segmentation of its n points is not
	// resumed: the series is searched whole.
	if k.n < 1 || k.seg.Settled < 0 || k.seg.Settled > len(k.seg.Changes) || k.seg.Open < 0 || k.seg.Open >= k.n {
		return k, false, nil
	}
	for i, c := range k.seg.Changes {
		if c.Index < 1 || c.Index >= k.n || i > 0 && c.Index <= k.seg.Changes[i-1].Index {
			return k, false, nil
		}
	}
	return k, true, nil
}

// keepSegmentation writes seg as the segmentation of sr under key,
// replacing a kept one of as many points or fewer (of two shows at once,
// the one that read more points stays).
func (s *Store) keepSegmentation(key string, sr ndjson.Series, seg changepoint.Segmentation, pointsHash string) error {
	cs := make([]keptChange, len(seg.Changes))
	for i, c := range seg.Changes {
		cs[i] = keptChange{Index: c.Index, Before: c.Before, After: c.After, P: c.P, Q: c.Q, Range: c.Range}
		for j, v := range c.CI {
			if !math.IsNaN(v) {
				cs[i].CI[j] = &v
			}
		}
	}
	changes, err := json.Marshal(cs)
	if err != nil {
		return fmt.Errorf("keep change points: %w", err)
	}
	_, err = s.db.Exec(s.dialect.bind(`INSERT INTO segmentations (key, metric, name, class, n, points_hash, open, settled, changes, updated)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (key) DO UPDATE SET n = excluded.n, points_hash = excluded.points_hash, open = excluded.open,
		settled = excluded.settled, changes = excluded.changes, updated = excluded.updated
	WHERE segmentations.n <= excluded.n`),
		key, sr.Metric, sr.Case, sr.Class, seg.N, pointsHash, seg.Open, seg.Settled, string(changes), time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return fmt.Errorf("keep change points: %w", err)
	}
	return nil
}

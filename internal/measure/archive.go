package measure

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/runs"
	"github.com/flybench/flybench/pkg/ndjson"
)

// archived is what a resumption reads from an archived stream collected
// in process blocks.
type archived struct {
	names   field.Names // how the messages spell Resume and Invocations
	run     ndjson.Run
	end     *ndjson.End // nil when the stream has none
	endLine int         // the end record's line number
	lines   int         // the stream's line count
	samples int         // the chosen sample count (config or calibration)
	// per block: the attempts seen, and the complete one if any
	attempts map[int]int // block → highest attempt seen
	complete map[int]bool
	recorded map[ndjson.ProcessRef]bool // attempts with a block record
	// open is the last attempt with samples or calibrations and no block
	// record yet, with its sample counts: a block cut short.
	open       *ndjson.ProcessRef
	openCounts []int
	kept       ndjson.End // the stream's counts, for the resumed end record
	nextUnit   int
	nextSeq    int
}

// scanArchive reads the stream of one run collected in process blocks;
// names spells the fields its messages name.
func scanArchive(r *ndjson.Reader, names field.Names) (*archived, error) {
	g := runs.NewReader(r)
	a := &archived{names: names, attempts: map[int]int{}, complete: map[int]bool{}, recorded: map[ndjson.ProcessRef]bool{}}
	runsSeen := 0
	for {
		rec, err := g.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		a.lines = rec.No
		if _, ok := rec.Value.(*ndjson.Run); ok {
			runsSeen++
		}
		if runsSeen > 1 {
			return nil, r.Errorf(rec.Line, "a second run record: %s continues a stream of one run", a.spell("Resume.Path"))
		}
		if err := a.add(r, rec); err != nil {
			return nil, err
		}
	}
	return a, a.check()
}

// add takes in one record.
func (a *archived) add(r *ndjson.Reader, rec runs.Record) error {
	switch v := rec.Value.(type) {
	case *ndjson.Run:
		a.run = *v
		a.samples = v.Config.Samples
		a.kept.Samples = make([]int, len(v.Cases))
		a.openCounts = make([]int, len(v.Cases))
	case *ndjson.Calibration:
		if a.samples == 0 {
			a.samples = v.Samples
		}
		return a.touch(r, rec.Line, v.Proc)
	case *ndjson.Sample:
		if err := a.touch(r, rec.Line, v.Proc); err != nil {
			return err
		}
		a.kept.Samples[v.Case]++
		a.openCounts[v.Case]++
		a.nextUnit, a.nextSeq = max(a.nextUnit, v.Unit+1), max(a.nextSeq, v.Seq+1)
	case *ndjson.Block:
		p := ndjson.ProcessRef{Block: v.Block, Attempt: v.Attempt}
		a.recorded[p] = true
		a.attempts[v.Block] = max(a.attempts[v.Block], v.Attempt)
		a.complete[v.Block] = a.complete[v.Block] || v.Status == ndjson.BlockComplete
		a.open = nil
	case *ndjson.End:
		a.end, a.endLine = v, rec.No
	}
	if rec.Type != ndjson.TypeRun && rec.Type != ndjson.TypeEnd && a.end != nil && rec.No > a.endLine {
		return r.Errorf(rec.Line, "a %s record after the end record: %s needs the stream as fb-pair wrote it", rec.Type, a.spell("Resume.Path"))
	}
	return nil
}

// touch notes a record of an attempt: a new attempt opens.
func (a *archived) touch(r *ndjson.Reader, l ndjson.Line, p *ndjson.ProcessRef) error {
	if p == nil {
		return r.Errorf(l, "a %s record without a process block: the stream was not collected with %s", l.Type, a.spell("Invocations"))
	}
	if a.open == nil || *a.open != *p {
		if a.recorded[*p] {
			return r.Errorf(l, "a %s record of block %d attempt %d after that attempt's block record", l.Type, p.Block, p.Attempt)
		}
		q := *p
		a.open = &q
		clear(a.openCounts)
		a.attempts[p.Block] = max(a.attempts[p.Block], p.Attempt)
	}
	return nil
}

func (a *archived) check() error {
	switch {
	case a.run.RunID == "":
		return errors.New("no run record: nothing to resume")
	case a.run.Config.Invocations < 2:
		return fmt.Errorf("run %s was not collected with %s: there are no blocks to resume", a.run.RunID, a.spell("Invocations"))
	case a.end != nil && a.endLine != a.lines:
		return fmt.Errorf("run %s's end record is not the last line: %s needs the stream as fb-pair wrote it", a.run.RunID, a.spell("Resume.Path"))
	}
	if a.end != nil {
		a.kept.Units, a.kept.Retakes, a.kept.Pauses = a.end.Units, a.end.Retakes, a.end.Pauses
		a.kept.PausedNS, a.kept.ElapsedNS, a.kept.SamplingNS = a.end.PausedNS, a.end.ElapsedNS, a.end.SamplingNS
	} else {
		a.kept.Units = a.nextUnit
	}
	return nil
}

// spell is a field's name in the archive's messages.
func (a *archived) spell(path string) string { return a.names.Spell(path) }

// abandoned is the block record for an attempt cut short without one.
func (a *archived) abandoned() *ndjson.Block {
	if a.open == nil {
		return nil
	}
	o := collect.BlockAt(len(a.run.Cases), a.open.Block, a.open.Attempt, a.run.Seed)
	return &ndjson.Block{RunID: a.run.RunID, Block: a.open.Block, Attempt: a.open.Attempt, Order: o.Order,
		Orientation: o.Orientation, Status: ndjson.BlockInterrupted, Samples: slices.Clone(a.openCounts),
		Reason: "abandoned by " + a.spell("Resume.Path") + ": the session collecting it ended without a block record"}
}

// plan is the blocks a resumed session collects: with retry, one fresh
// attempt of each block that has none complete, in block order; then new
// blocks after the last one until want blocks are complete.
func (a *archived) plan(want int, retry bool) []collect.Block {
	k, seed := len(a.run.Cases), a.run.Seed
	last := -1
	for b := range a.attempts {
		last = max(last, b)
	}
	var out []collect.Block
	done := a.completeCount()
	if retry {
		for b := 0; b <= last && done < want; b++ {
			if _, seen := a.attempts[b]; seen && !a.complete[b] {
				out = append(out, collect.BlockAt(k, b, a.attempts[b]+1, seed))
				done++
			}
		}
	}
	for b := last + 1; done < want; b++ {
		out = append(out, collect.BlockAt(k, b, 0, seed))
		done++
	}
	return out
}

// completeCount is the number of blocks with a complete attempt.
func (a *archived) completeCount() int {
	n := 0
	for _, ok := range a.complete {
		if ok {
			n++
		}
	}
	return n
}

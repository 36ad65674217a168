package analyze

import (
	"fmt"

	"github.com/flybench/flybench/pkg/ndjson"
)

// blockKey names one attempt at one process block.
type blockKey struct{ block, attempt int32 }

// completeBlocks are the attempts whose block records say complete, with
// the orientation stratum of each (0 for AB or forward, 1 for BA or
// reverse).
func (d *runData) completeBlocks() map[blockKey]int {
	out := map[blockKey]int{}
	for _, b := range d.blocks {
		if b.Status != ndjson.BlockComplete {
			continue
		}
		stratum := 0
		if b.Orientation == ndjson.OrientBA || b.Orientation == ndjson.OrientReverse {
			stratum = 1
		}
		out[blockKey{int32(b.Block), int32(b.Attempt)}] = stratum
	}
	return out
}

// dropIncompleteBlocks keeps, in a run collected in process blocks, only
// the samples of complete blocks: an interrupted or half-failed block
// stays in the stream, marked, but no orphan half enters any statistic.
// It returns a warning when it dropped samples.
func (d *runData) dropIncompleteBlocks() []string {
	complete := d.completeBlocks()
	dropped, blocks := 0, map[blockKey]bool{}
	for c, pts := range d.cases {
		kept := pts[:0]
		for _, p := range pts {
			k := blockKey{p.block, p.attempt}
			if _, ok := complete[k]; p.block < 0 || ok {
				kept = append(kept, p)
				continue
			}
			dropped++
			blocks[k] = true
		}
		d.cases[c] = kept
	}
	if dropped == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%d samples of %d incomplete process blocks (interrupted, failed, or without a block record) are left out of every statistic: a block counts only when all its members completed in the same attempt", dropped, len(blocks))}
}

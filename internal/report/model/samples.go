package model

import (
	"bytes"
	"cmp"
	"compress/flate"
	"fmt"
	"io"
	"slices"

	json "github.com/goccy/go-json"

	"github.com/flybench/flybench/pkg/ndjson"
)

// sampleBlock is the size a SampleStore fills a block to before it
// compresses it: a few hundred samples, so that reading one back costs
// little and a store read in collection order inflates each block once.
const sampleBlock = 256 << 10

// SampleStore holds a run's sample records in their stream form: each one
// compact JSON, one after another, in blocks compressed as they fill. A
// stream is mostly samples, and a decoded sample (its axes a map of
// values) takes several times its line; compressed, a store takes a
// fraction of the stream, so a format that lists every sample (gobench,
// json --samples) keeps the report's memory below the stream's size. The
// formats read the samples back one at a time.
type SampleStore struct {
	blocks [][]byte // compressed, every block but the last, open one
	open   bytes.Buffer
	// at locates sample i: its block, and its end within the block's
	// text; it starts where sample i-1 ends, or at 0 when i-1 is in
	// another block.
	at   []sampleAt
	seqs []int
	buf  bytes.Buffer
	enc  *json.Encoder
	// text is the text of block cached, the last one read back.
	text   []byte
	cached int
	zw     *flate.Writer
}

type sampleAt struct{ block, end int32 }

// Len is how many samples the store holds; a nil store holds none.
func (s *SampleStore) Len() int {
	if s == nil {
		return 0
	}
	return len(s.at)
}

// add appends a sample in its stream form.
func (s *SampleStore) add(v *ndjson.Sample) error {
	if s.enc == nil {
		s.enc = json.NewEncoder(&s.buf)
		s.enc.SetEscapeHTML(false)
	}
	s.buf.Reset()
	if err := s.enc.Encode(v); err != nil {
		return fmt.Errorf("keep sample %d: %w", v.Seq, err)
	}
	b := bytes.TrimSuffix(s.buf.Bytes(), []byte("\n"))
	if s.open.Len() > 0 && s.open.Len()+len(b) > sampleBlock {
		if err := s.seal(); err != nil {
			return err
		}
	}
	s.open.Write(b)
	s.at = append(s.at, sampleAt{block: int32(len(s.blocks)), end: int32(s.open.Len())})
	s.seqs = append(s.seqs, v.Seq)
	return nil
}

// seal compresses the open block and starts the next.
func (s *SampleStore) seal() error {
	var z bytes.Buffer
	if s.zw == nil {
		var err error
		if s.zw, err = flate.NewWriter(&z, flate.BestSpeed); err != nil {
			return err
		}
	} else {
		s.zw.Reset(&z)
	}
	if _, err := s.zw.Write(s.open.Bytes()); err != nil {
		return fmt.Errorf("keep samples: %w", err)
	}
	if err := s.zw.Close(); err != nil {
		return fmt.Errorf("keep samples: %w", err)
	}
	s.blocks = append(s.blocks, bytes.Clone(z.Bytes()))
	s.open.Reset()
	return nil
}

// JSON is sample i in its stream form, compact. The bytes are the
// store's, valid until the next call.
func (s *SampleStore) JSON(i int) ([]byte, error) {
	a := s.at[i]
	text, err := s.block(int(a.block))
	if err != nil {
		return nil, err
	}
	start := int32(0)
	if i > 0 && s.at[i-1].block == a.block {
		start = s.at[i-1].end
	}
	return text[start:a.end:a.end], nil
}

// block is the text of block b, inflated once for consecutive reads.
func (s *SampleStore) block(b int) ([]byte, error) {
	if b == len(s.blocks) {
		return s.open.Bytes(), nil
	}
	if b == s.cached && s.text != nil {
		return s.text, nil
	}
	zr := flate.NewReader(bytes.NewReader(s.blocks[b]))
	var out bytes.Buffer
	out.Grow(sampleBlock)
	if _, err := io.Copy(&out, zr); err != nil {
		return nil, fmt.Errorf("read back samples: %w", err)
	}
	s.text, s.cached = out.Bytes(), b
	return s.text, nil
}

// Sample is sample i decoded.
func (s *SampleStore) Sample(i int) (ndjson.Sample, error) {
	var v ndjson.Sample
	b, err := s.JSON(i)
	if err == nil {
		err = json.Unmarshal(b, &v)
	}
	if err != nil {
		return v, fmt.Errorf("read back sample %d: %w", s.seqs[i], err)
	}
	return v, nil
}

// Ordered are the store's indices in collection order (by seq, stream
// order among equal ones).
func (s *SampleStore) Ordered() []int {
	idx := make([]int, s.Len())
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(s.seqs[a], s.seqs[b]) })
	return idx
}

package ndjson

import (
	"bytes"
	"strconv"
	"unsafe"
)

// sampleKeys is how Writer lays out a sample record. Lines in exactly that
// layout are parsed without the reflection-based decoder, since samples
// are nearly every line of a stream; anything else (another writer,
// another field order, a newer minor version with extra fields) takes the
// general decoder.
var sampleKeys = [][]byte{
	[]byte(`,"case":`), []byte(`,"unit":`), []byte(`,"pos":`), []byte(`,"seq":`),
	[]byte(`,"iter":`), []byte(`,"wall_ns":`), []byte(`,"op_ns":`),
}

// DecodeSample decodes a sample line into s. A line in the layout Writer
// gives samples was parsed when Next read it; any other goes to Decode.
func (r *Reader) DecodeSample(l Line, s *Sample) error {
	if l.valid && l.No == r.sampleNo {
		*s = r.sample
		return nil
	}
	*s = Sample{}
	return r.Decode(l, s)
}

// fastSample parses {"type":"sample","v":"…","case":…,…,"op_ns":…} into s,
// v being the version fastHeader read. Every byte of the line is checked
// against that layout and JSON's grammar for numbers, so a line it
// accepts is JSON: Next needs no second pass over it.
func fastSample(raw []byte, v string, s *Sample) bool {
	head := len(`{"type":"sample","v":""`) + len(v)
	if len(raw) < head || raw[len(raw)-1] != '}' {
		return false
	}
	rest := raw[head:]
	var ints [6]int64
	for k := 0; k < 6; k++ {
		v, tail, ok := intField(rest, sampleKeys[k])
		if !ok {
			return false
		}
		ints[k], rest = v, tail
	}
	op, tail, ok := floatField(rest, sampleKeys[6])
	if !ok || len(tail) != 1 || tail[0] != '}' {
		return false
	}
	*s = Sample{Header: Header{Type: TypeSample, V: v}}
	s.Case, s.Unit, s.Pos, s.Seq = int(ints[0]), int(ints[1]), int(ints[2]), int(ints[3])
	s.Iter, s.WallNS, s.OpNS = ints[4], ints[5], op
	return true
}

func intField(b, key []byte) (int64, []byte, bool) {
	num, tail, ok := field(b, key)
	if !ok {
		return 0, nil, false
	}
	v, ok := parseInt(num)
	return v, tail, ok
}

// parseInt reads a JSON integer: an optional minus and up to 18 digits,
// without leading zeros (larger values take the general decoder).
func parseInt(b []byte) (int64, bool) {
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 || (len(b) > 1 && b[0] == '0') {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

func floatField(b, key []byte) (float64, []byte, bool) {
	num, tail, ok := field(b, key)
	if !ok {
		return 0, nil, false
	}
	// JSON's number grammar, not strconv's: no inf, nan, hex, underscores,
	// leading plus or zeros, bare decimal points.
	if end, err := number(num, 0); err != nil || end != len(num) {
		return 0, nil, false
	}
	// The bytes are not modified while the string is in use, and the
	// error (which would keep it) is dropped: no copy per sample.
	v, err := strconv.ParseFloat(unsafe.String(&num[0], len(num)), 64)
	return v, tail, err == nil
}

// field cuts key and the number after it from the front of b.
func field(b, key []byte) (num, tail []byte, ok bool) {
	rest, found := bytes.CutPrefix(b, key)
	if !found {
		return nil, nil, false
	}
	end := 0
	for end < len(rest) && rest[end] != ',' && rest[end] != '}' {
		end++
	}
	if end == 0 || end == len(rest) {
		return nil, nil, false
	}
	return rest[:end], rest[end:], true
}

package analyze

import (
	"bytes"
	"strconv"
	"unsafe"

	"github.com/flybench/flybench/pkg/ndjson"
)

// sampleKeys is how ndjson.Writer lays out a sample record. Lines in
// exactly that layout are parsed without the reflection-based decoder,
// since samples are nearly every line of a stream; anything else (another
// writer, another field order, a newer minor version with extra fields)
// takes the general decoder.
var sampleKeys = [][]byte{
	[]byte(`,"case":`), []byte(`,"unit":`), []byte(`,"pos":`), []byte(`,"seq":`),
	[]byte(`,"iter":`), []byte(`,"wall_ns":`), []byte(`,"op_ns":`),
}

func decodeSample(r *ndjson.Reader, l ndjson.Line) (ndjson.Sample, error) {
	if s, ok := fastSample(l.Raw, l.V); ok {
		return s, nil
	}
	var s ndjson.Sample
	err := r.Decode(l, &s)
	return s, err
}

// fastSample parses {"type":"sample","v":"…","case":…,…,"op_ns":…}.
func fastSample(raw []byte, v string) (ndjson.Sample, bool) {
	var s ndjson.Sample
	head := len(`{"type":"sample","v":""`) + len(v)
	if len(raw) < head || raw[len(raw)-1] != '}' {
		return s, false
	}
	rest := raw[head:]
	var ints [6]int64
	for k := 0; k < 6; k++ {
		v, tail, ok := intField(rest, sampleKeys[k])
		if !ok {
			return s, false
		}
		ints[k], rest = v, tail
	}
	op, tail, ok := floatField(rest, sampleKeys[6])
	if !ok || !bytes.Equal(tail, []byte("}")) {
		return s, false
	}
	s.Type, s.V = ndjson.TypeSample, v
	s.Case, s.Unit, s.Pos, s.Seq = int(ints[0]), int(ints[1]), int(ints[2]), int(ints[3])
	s.Iter, s.WallNS, s.OpNS = ints[4], ints[5], op
	return s, true
}

func intField(b, key []byte) (int64, []byte, bool) {
	num, tail, ok := field(b, key)
	if !ok {
		return 0, nil, false
	}
	v, ok := parseInt(num)
	return v, tail, ok
}

// parseInt reads a JSON integer: an optional minus and up to 18 digits
// (larger values take the general decoder).
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
	if !ok || !jsonNumber(num) {
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

// jsonNumber rejects what strconv accepts but JSON does not (inf, nan, hex,
// underscores, a leading plus); the general decoder then reports it.
func jsonNumber(b []byte) bool {
	if b[0] != '-' && (b[0] < '0' || b[0] > '9') {
		return false
	}
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return false
		}
	}
	return true
}

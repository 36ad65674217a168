package ndjson

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestFastSampleMatchesDecoder(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	samples := []Sample{
		{Case: 3, Unit: 12, Pos: 2, Seq: 99, Iter: 1 << 40, WallNS: 123456789, OpNS: 0.000123},
		{Case: 0, Unit: 0, Pos: 0, Seq: 0, Iter: 1, WallNS: 0, OpNS: 1e21},
		{Case: 1, Unit: 1, Pos: 1, Seq: 1, Iter: 7, WallNS: 8, OpNS: 1.1428571428571428},
	}
	for i := range samples {
		if err := w.Write(&samples[i]); err != nil {
			t.Fatal(err)
		}
	}
	r := NewReader(&buf, "s")
	for i := range samples {
		l, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		var fast, slow Sample
		if !fastSample(l.Raw, l.V, &fast) || !reflect.DeepEqual(fast, samples[i]) {
			t.Fatalf("fast path %+v, want %+v", fast, samples[i])
		}
		l.valid = false // the general decoder
		if err := r.DecodeSample(l, &slow); err != nil || !reflect.DeepEqual(slow, fast) {
			t.Fatalf("decoder %+v, %v; fast path %+v", slow, err, fast)
		}
	}
}

// TestFastSampleOnlyJSON: the fast path accepts nothing that is not JSON,
// since Next does not check the lines it accepts again.
func TestFastSampleOnlyJSON(t *testing.T) {
	const good = `{"type":"sample","v":"1.0","case":0,"unit":0,"pos":0,"seq":0,"iter":1,"wall_ns":5,"op_ns":5}`
	var s Sample
	if !fastSample([]byte(good), "1.0", &s) {
		t.Fatal("fast path refused the writer's layout")
	}
	for _, odd := range []string{
		strings.Replace(good, `"op_ns":5`, `"op_ns":NaN`, 1),
		strings.Replace(good, `"op_ns":5`, `"op_ns":1.`, 1),
		strings.Replace(good, `"op_ns":5`, `"op_ns":.5`, 1),
		strings.Replace(good, `"op_ns":5`, `"op_ns":05`, 1),
		strings.Replace(good, `"op_ns":5`, `"op_ns":1e`, 1),
		strings.Replace(good, `"op_ns":5`, `"op_ns":0x10`, 1),
		strings.Replace(good, `"op_ns":5`, `"op_ns":1_0`, 1),
		strings.Replace(good, `"op_ns":5`, `"op_ns":+5`, 1),
		strings.Replace(good, `"case":0`, `"case":+1`, 1),
		strings.Replace(good, `"case":0`, `"case":01`, 1),
		strings.Replace(good, `"case":0`, `"case":-`, 1),
		strings.Replace(good, `"case":0,"unit":0`, `"unit":0,"case":0`, 1),
		strings.Replace(good, `"op_ns":5}`, `"op_ns":5,"x":1}`, 1),
		strings.Replace(good, `"op_ns":5}`, `"op_ns":5 }`, 1),
		strings.Replace(good, `}`, `}}`, 1),
	} {
		if fastSample([]byte(odd), "1.0", &s) {
			t.Errorf("fast path accepted %s", odd)
		}
	}
	// A version string that is not plain printable ASCII is read by the
	// general path: refused when it is not JSON, decoded when it is.
	for v, want := range map[string]string{"1.\x01": "", "1.\xff": "", `1.\u0030`: "1.0"} {
		line := strings.Replace(good, `"v":"1.0"`, `"v":"`+v+`"`, 1)
		r := NewReader(strings.NewReader(line+"\n"), "in")
		l, err := r.Next()
		if want == "" && err == nil || want != "" && (err != nil || l.V != want || r.sampleNo != 0) {
			t.Errorf("%q: read as %+v, %v", line, l, err)
		}
	}
}

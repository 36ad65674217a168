package model

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/flybench/flybench/pkg/ndjson"
)

// storeSample is sample k of a store test: its fields vary with k, so
// a sample read back from the wrong place shows.
func storeSample(k int) ndjson.Sample {
	v := float64(k) * 1.5
	return ndjson.Sample{Header: ndjson.Header{Type: ndjson.TypeSample, V: ndjson.Version}, Case: k % 3, Unit: k / 3, Pos: k % 3,
		Seq: k, Iter: int64(100 + k), WallNS: int64(1000 * k), OpNS: 10 + float64(k)/7, SelfNS: &v,
		Axes: map[string]ndjson.AxisValue{"alloc_bytes": {S: "collected", V: &v}, "note<&>": {S: fmt.Sprintf("s%d", k)}}}
}

// TestSampleStoreReadsBackEverySample: over many compressed blocks, in
// any order of reading, every sample comes back as it went in and as the
// stream writes it (compact, no HTML escaping).
func TestSampleStoreReadsBackEverySample(t *testing.T) {
	var st SampleStore
	const n = 5000 // about 1.3 MB of text: several blocks
	for k := range n {
		s := storeSample(k)
		if err := st.add(&s); err != nil {
			t.Fatal(err)
		}
	}
	if st.Len() != n || len(st.blocks) < 3 {
		t.Fatalf("%d samples in %d sealed blocks, want %d in several", st.Len(), len(st.blocks), n)
	}
	for _, k := range []int{0, n - 1, 1, 2500, 17, n - 2, 4000, 3} {
		want := storeSample(k)
		got, err := st.Sample(k)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("sample %d read back as %+v, want %+v", k, got, want)
		}
		text, err := st.JSON(k)
		if err != nil {
			t.Fatal(err)
		}
		var enc bytes.Buffer
		e := json.NewEncoder(&enc)
		e.SetEscapeHTML(false)
		if err := e.Encode(want); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(append(text, '\n'), enc.Bytes()) {
			t.Fatalf("sample %d's text\n%s\nwant\n%s", k, text, enc.Bytes())
		}
	}
	var nilStore *SampleStore
	if nilStore.Len() != 0 || len(nilStore.Ordered()) != 0 {
		t.Errorf("a nil store holds %d samples", nilStore.Len())
	}
}

// TestSampleStoreOrdered: indices by seq, stream order among equal seqs.
func TestSampleStoreOrdered(t *testing.T) {
	var st SampleStore
	for _, seq := range []int{2, 0, 1, 1, 3} {
		s := storeSample(seq)
		if err := st.add(&s); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := st.Ordered(), []int{1, 2, 3, 0, 4}; !reflect.DeepEqual(got, want) {
		t.Errorf("ordered %v, want %v", got, want)
	}
}

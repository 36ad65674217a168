package splice

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"
)

// TestWrite: each array goes in at its mark, indented as the encoder
// indents the document around it; an empty one is []; a mark the
// document lacks is an error.
func TestWrite(t *testing.T) {
	marks := NewMarks()
	a, b := marks.Next(), marks.Next()
	doc := struct {
		X struct {
			A *Place `json:"a"`
		} `json:"x"`
		B *Place `json:"b"`
	}{B: &b}
	doc.X.A = &a
	text, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	items := []string{`{"k":1}`, `2`}
	var out bytes.Buffer
	err = Write(&out, text, []Array{
		{Mark: a, Len: 2, Item: func(i int, indent string) ([]byte, error) {
			var b bytes.Buffer
			err := json.Indent(&b, []byte(items[i]), indent, "  ")
			return b.Bytes(), err
		}},
		{Mark: b, Len: 0},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"x\": {\n    \"a\": [\n      {\n        \"k\": 1\n      },\n      2\n    ]\n  },\n  \"b\": []\n}"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if err := Write(&bytes.Buffer{}, []byte(strconv.Quote("other")), []Array{{Mark: a}}); err == nil {
		t.Error("a mark the document lacks was not an error")
	}
}

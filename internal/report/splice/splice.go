// Package splice writes a JSON document whose long arrays were left out
// of its encoding: each array stands in the encoded document as a quoted
// mark, and Write puts its items in that place as the document goes out,
// one per line, indented as the encoder indents the rest. A format that
// lists a value per sample thus never holds its whole text.
package splice

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
)

// Place is what stands in a document for an array left out of it: a
// field of this type (a pointer, for a field that may be absent or null)
// encodes as a JSON string, the mark.
type Place string

// Array is one array left out of a document: Mark is what stands in its
// place, Len its length, and Item the text of item i, whose continuation
// lines (an object's) start with indent.
type Array struct {
	Mark Place
	Len  int
	Item func(i int, indent string) ([]byte, error)
}

// Marks gives each array of one document a mark no text of the document
// holds by chance.
type Marks struct {
	base string
	n    int
}

// NewMarks starts the marks of a document.
func NewMarks() *Marks { return &Marks{base: fmt.Sprintf("flybench-array-%016x", rand.Uint64())} }

// Next is the next array's mark.
func (m *Marks) Next() Place {
	m.n++
	return Place(fmt.Sprintf("%s-%d", m.base, m.n))
}

// Write writes doc, indented by two spaces per level, to w with each
// array in the place of its mark; arrays come in the order their marks
// appear. Errors writing to w are "write report: ...".
func Write(w io.Writer, doc []byte, arrays []Array) error {
	bw := bufio.NewWriter(w)
	for _, a := range arrays {
		quoted := []byte(strconv.Quote(string(a.Mark)))
		at := bytes.Index(doc, quoted)
		if at < 0 {
			return fmt.Errorf("encode JSON: array %s has no place in the document", a.Mark)
		}
		line := doc[bytes.LastIndexByte(doc[:at], '\n')+1 : at]
		indent := string(line[:len(line)-len(bytes.TrimLeft(line, " "))])
		bw.Write(doc[:at])
		if a.Len == 0 {
			bw.WriteString("[]")
		} else {
			bw.WriteByte('[')
			for i := range a.Len {
				item, err := a.Item(i, indent+"  ")
				if err != nil {
					return err
				}
				if i > 0 {
					bw.WriteByte(',')
				}
				bw.WriteString("\n" + indent + "  ")
				bw.Write(item)
			}
			bw.WriteString("\n" + indent + "]")
		}
		doc = doc[at+len(quoted):]
	}
	bw.Write(doc)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

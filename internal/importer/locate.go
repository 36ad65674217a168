package importer

import (
	"bytes"
	"encoding/json"
	"io"
)

// lineAt is the line on which the value at path (object keys and array
// indices, outermost first) begins in data, a document already known to
// be valid JSON; 0 when the path is not in it.
func lineAt(data []byte, path ...any) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	for _, step := range path {
		if !enter(dec, step) {
			return 0
		}
	}
	off := int(dec.InputOffset())
	for off < len(data) && bytes.IndexByte([]byte(" \t\r\n,:"), data[off]) >= 0 {
		off++
	}
	return lineOfOffset(data, int64(off))
}

// enter moves dec from before a value to before its member step (a key
// of an object, an index of an array); false when there is none.
func enter(dec *json.Decoder, step any) bool {
	tok, err := dec.Token()
	if err != nil {
		return false
	}
	switch s := step.(type) {
	case string:
		if tok != json.Delim('{') {
			return false
		}
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return false
			}
			if key == s {
				return true
			}
			if skip(dec) != nil {
				return false
			}
		}
	case int:
		if tok != json.Delim('[') {
			return false
		}
		for i := 0; dec.More(); i++ {
			if i == s {
				return true
			}
			if skip(dec) != nil {
				return false
			}
		}
	}
	return false
}

// skip reads one whole value from dec.
func skip(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return io.ErrUnexpectedEOF
		}
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

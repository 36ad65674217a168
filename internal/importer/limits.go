package importer

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/flybench/flybench/pkg/ndjson"
)

// checkUTF8 refuses a file that is not UTF-8: encoding/json would turn
// each bad byte of a name into U+FFFD, and the stream would carry a name
// the file does not hold. Invalid bytes can only be inside strings, as
// JSON's grammar has no other place for them.
func checkUTF8(file string, data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	off := 0
	for off < len(data) {
		r, n := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && n == 1 {
			break
		}
		off += n
	}
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return &InputError{File: file, Line: lineOfOffset(data, int64(off)),
		Msg: fmt.Sprintf("invalid UTF-8 (byte 0x%02x at column %d): a stream carries text as UTF-8; re-export the file or fix the name", data[off], col)}
}

// checkSize refuses a run whose run record would be longer than a line
// the stream's readers take (ndjson.MaxLineBytes), naming the longest
// text of the file in it: fb-analyze would refuse the whole import.
func checkSize(src *source, file string, data []byte, run *ndjson.Run) error {
	var buf bytes.Buffer
	if err := ndjson.NewWriter(&buf).Write(run); err != nil {
		return &InputError{File: file, Msg: fmt.Sprintf("the run record cannot be written: %v", err)}
	}
	if buf.Len() <= ndjson.MaxLineBytes {
		return nil
	}
	where, size, path := longestText(src)
	line := 0
	if path != nil {
		line = lineAt(data, path...)
	} else if len(src.benchmarks) > 0 {
		file, line = cmp.Or(src.benchmarks[0].file, file), src.benchmarks[0].line
	}
	return &InputError{File: file, Line: line,
		Msg: fmt.Sprintf("%s is %d bytes: the run record (each case's name, command and parameters) would be %d bytes, and fb-analyze reads records of at most 16 MiB (%d bytes); shorten it",
			where, size, buf.Len(), ndjson.MaxLineBytes)}
}

// longestText is the longest command or parameter of the source: where
// it is, for a message and for lineAt, and its length.
func longestText(src *source) (where string, size int, path []any) {
	for _, b := range src.benchmarks {
		if len(b.command) > size {
			where, size, path = b.where, len(b.command), b.path
		}
		keys := make([]string, 0, len(b.params))
		for k := range b.params {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if n := len(k) + len(b.params[k]); n > size && b.path != nil {
				where, size, path = fmt.Sprintf("%s.parameters.%s", b.where[:strings.LastIndexByte(b.where, '.')], clip(k)), n, append(slices.Clone(b.path[:len(b.path)-1]), "parameters", k)
			} else if n > size {
				where, size, path = fmt.Sprintf("%s parameter %s", b.where, clip(k)), n, nil
			}
		}
	}
	return where, size, path
}

// clip keeps a name in a message short.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// decodeDocument reads a JSON results file into doc: refused when empty
// (emptyMsg says how the tool writes it), when not UTF-8, and when not
// the document words names, each at its file and line.
func decodeDocument(file string, data []byte, doc any, emptyMsg string, words docWords) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return &InputError{File: file, Msg: emptyMsg}
	}
	if err := checkUTF8(file, data); err != nil {
		return err
	}
	if err := json.Unmarshal(data, doc); err != nil {
		return decodeError(file, data, err, words)
	}
	return nil
}

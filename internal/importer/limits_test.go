package importer

import (
	"errors"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// hfFile is a hyperfine document with one result: command on line 3.
func hfFile(command, param string) []byte {
	return []byte("{\n  \"results\": [{\n    \"command\": \"" + command + "\",\n    \"times\": [0.1, 0.2],\n" +
		"    \"parameters\": {\"" + param + "\": \"1\"}\n  }]\n}\n")
}

// TestImportWritesWhatReadersRead: fb-import refuses what the stream's
// readers would refuse, at the line of the fault, instead of writing it
// (flybench issue 21, item 8): invalid UTF-8, which encoding/json turned
// into U+FFFD with exit 0, and a run record over the readers' line limit
// (a 100 MB command name gave a 200 MB line fb-analyze refused).
func TestImportWritesWhatReadersRead(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		line int
		want string
	}{
		{"utf8-command", hfFile("sleep \xff1", "x"), 3, "invalid UTF-8 (byte 0xff at column 23): a stream carries text as UTF-8; re-export the file or fix the name"},
		{"utf8-parameter", hfFile("sleep 1", "n\xc3("), 5, "invalid UTF-8 (byte 0xc3 at column 22)"},
		{"long-command", hfFile(strings.Repeat("x", 9<<20), "x"), 3, "results[0].command is 9437184 bytes: the run record (each case's name, command and parameters) would be"},
	}
	for _, tc := range tests {
		res, err := Import("hyperfine", tc.name+".json", tc.data, Options{})
		var ie *InputError
		if !errors.As(err, &ie) || res != nil {
			t.Errorf("%s: imported (%v); want an InputError", tc.name, err)
			continue
		}
		if ie.Line != tc.line || !strings.Contains(ie.Msg, tc.want) {
			t.Errorf("%s: %v\nwant line %d: %s", tc.name, err, tc.line, tc.want)
		}
	}
	// Renamed with --name, the record holds the command once: it fits.
	if _, err := Import("hyperfine", "l.json", hfFile(strings.Repeat("x", 9<<20), "x"), Options{Names: []string{"x"}}); err != nil {
		t.Errorf("a 9 MiB command under a short name: %v", err)
	}
	// Names just under the limit are imported, and read back.
	res, err := Import("hyperfine", "ok.json", hfFile(strings.Repeat("x", 4<<20), "x"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkReadable(t, encode(t, res.Records), len(res.Records))
	if n := len(encode(t, res.Records[:1])); n > ndjson.MaxLineBytes {
		t.Fatalf("a run record of %d bytes", n)
	}
}

// TestParametersDifferingInCase: parameter names that differ only in case
// are two names, and the stream holding both is read back.
func TestParametersDifferingInCase(t *testing.T) {
	data := []byte(`{"results":[{"command":"c","times":[0.1,0.2],"parameters":{"n":"1","N":"2"}}]}`)
	res, err := Import("hyperfine", "p.json", data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkReadable(t, encode(t, res.Records), len(res.Records))
}

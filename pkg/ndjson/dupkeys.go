package ndjson

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	json "github.com/goccy/go-json"
)

// bigObject is the number of keys from which an object's keys are kept
// in a map rather than compared one by one.
const bigObject = 32

// key is one member name of an open object: as written, and as a decoder
// matches it (escapes decoded; folded to lower case when it then names a
// field of the schema, which decoders match regardless of case).
type key struct {
	raw, canon []byte
	off        int
}

// addKey records the member name b[start:end] (its quotes included) of
// the innermost open object, or reports where it repeats an earlier one.
func (v *validator) addKey(b []byte, start, end int) *syntaxPos {
	k := key{raw: b[start+1 : end-1], off: start}
	inMap := v.maps[len(v.maps)-1]
	k.canon = canonical(k.raw, !inMap)
	v.mapNext = !inMap && schemaMaps()[string(k.canon)]
	mark := v.marks[len(v.marks)-1]
	set := v.sets[len(v.sets)-1]
	var prev *key
	if set != nil {
		if i, ok := set[string(k.canon)]; ok {
			prev = &v.keys[i]
		}
	} else {
		for i := mark; i < len(v.keys); i++ {
			if string(v.keys[i].canon) == string(k.canon) {
				prev = &v.keys[i]
				break
			}
		}
	}
	if prev != nil {
		return duplicate(*prev, k)
	}
	v.keys = append(v.keys, k)
	if n := len(v.keys) - mark; set != nil {
		set[string(k.canon)] = len(v.keys) - 1
	} else if n == bigObject {
		set = make(map[string]int, 2*bigObject)
		for i := mark; i < len(v.keys); i++ {
			set[string(v.keys[i].canon)] = i
		}
		v.sets[len(v.sets)-1] = set
	}
	return nil
}

// openObject and closeObject keep the keys of the open objects; isMap
// says the object is the value of a field of the schema that is a map
// (tags, params, axes of a sample), whose keys are names the user chose
// and are compared exactly.
func (v *validator) openObject(isMap bool) {
	v.marks = append(v.marks, len(v.keys))
	v.sets = append(v.sets, nil)
	v.maps = append(v.maps, isMap)
}

func (v *validator) closeObject() {
	v.keys = v.keys[:v.marks[len(v.marks)-1]]
	v.marks, v.sets, v.maps = v.marks[:len(v.marks)-1], v.sets[:len(v.sets)-1], v.maps[:len(v.maps)-1]
}

func duplicate(first, again key) *syntaxPos {
	p := &syntaxPos{off: again.off, dup: true}
	if string(first.raw) == string(again.raw) || strings.ContainsRune(string(first.raw)+string(again.raw), '\\') {
		p.msg = fmt.Sprintf("duplicate key %q: a reader would keep only the last value; write each key once", first.canon)
	} else {
		p.msg = fmt.Sprintf("keys %q and %q name one field (a reader matches field names regardless of case and keeps only the last value); write it once, in lower case", first.raw, again.raw)
	}
	return p
}

// canonical is a member name as a decoder matches it: escapes decoded
// and, with fold, a name of a schema field in lower case. A plain
// lower-case name is itself, with no copy: what every writer of the
// stream writes.
func canonical(raw []byte, fold bool) []byte {
	plain := true
	for _, c := range raw {
		if c == '\\' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		return raw
	}
	name := raw
	if strings.IndexByte(string(raw), '\\') >= 0 {
		var s string
		if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s) != nil {
			return raw // the validator has checked the escapes; unreachable
		}
		name = []byte(s)
	}
	if !fold || !isASCII(name) {
		return name
	}
	if lower := strings.ToLower(string(name)); lower != string(name) && schemaFields()[lower] {
		return []byte(lower)
	}
	return name
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// schemaFields are the names of every field of every record type, the
// names a decoder matches regardless of case; schemaMaps those of fields
// that are maps.
var (
	schemaFields = sync.OnceValue(func() map[string]bool { return schemaNames(false) })
	schemaMaps   = sync.OnceValue(func() map[string]bool { return schemaNames(true) })
)

func schemaNames(maps bool) map[string]bool {
	names, mapNames := map[string]bool{}, map[string]bool{}
	seen := map[reflect.Type]bool{}
	for _, r := range allRecords() {
		fieldNames(reflect.TypeOf(r), names, mapNames, seen)
	}
	if maps {
		return mapNames
	}
	return names
}

// allRecords is one value of every record type of the schema.
func allRecords() []Record {
	return []Record{&Run{}, &Calibration{}, &Sample{}, &End{}, &Look{}, &Counter{}, &Block{}, &Lock{}, &Gate{},
		&Window{}, &Analysis{}, &Summary{}, &Comparison{}, &Environment{}, &Suite{}, &AA{}, &Noise{}, &Check{},
		&Recording{}, &Span{}, &RecordingEnd{}, &ProcessUsage{}, &SpanSummary{}, &SpanComparison{}}
}

// fieldNames adds the JSON names of t's fields, and of every struct type
// they hold, to names, and those of map fields to maps.
func fieldNames(t reflect.Type, names, maps map[string]bool, seen map[reflect.Type]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" && !f.Anonymous {
			name = f.Name
		}
		if name != "" {
			names[strings.ToLower(name)] = true
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if name != "" && ft.Kind() == reflect.Map {
			maps[name] = true
		}
		fieldNames(f.Type, names, maps, seen)
	}
}

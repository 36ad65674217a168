package recorder

import "strconv"

// schemaVersion is the stream schema the recorder writes (man
// fb-stream(5)); the package mirrors the names of pkg/ndjson rather than
// importing it, so programs that link it need nothing but the standard
// library.
const schemaVersion = "1.7"

// appendSpan formats one streamed or retained span as a span record line, by hand:
// the strings it writes (ids, outcome and axis names, statuses) need no
// JSON escaping.
func (r *Recorder) appendSpan(buf []byte, b int, p *row) []byte {
	buf = append(buf, `{"type":"span","v":"`+schemaVersion+`","run_id":"`...)
	buf = append(buf, r.runID...)
	buf = append(buf, `","b":`...)
	buf = strconv.AppendInt(buf, int64(b), 10)
	buf = append(buf, `,"obs":`...)
	buf = strconv.AppendInt(buf, p.obs, 10)
	buf = append(buf, `,"outcome":"`...)
	buf = append(buf, p.outcome.String()...)
	buf = append(buf, `","start_ns":`...)
	buf = strconv.AppendInt(buf, p.start, 10)
	buf = append(buf, `,"wall_ns":`...)
	buf = strconv.AppendInt(buf, p.wall, 10)
	if len(r.axes) > 0 {
		buf = append(buf, `,"axes":{`...)
		for i, d := range r.axes {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = r.appendValue(buf, d, p)
		}
		buf = append(buf, '}')
	}
	return append(buf, "}\n"...)
}

// appendValue formats one axis of a span: a value with status collected,
// or a status and no value.
func (r *Recorder) appendValue(buf []byte, d axisDesc, p *row) []byte {
	buf = append(buf, '"')
	buf = append(buf, d.name...)
	buf = append(buf, `":{"s":"`...)
	switch {
	case r.sel&d.sel == 0 && d.sel&PerfAxes != 0:
		buf = append(buf, r.perfStatus...)
	case r.sel&d.sel == 0:
		buf = append(buf, statusUnsupported...)
	case p.status[d.field] == valMigrated:
		buf = append(buf, statusMigrated+`","r":"began on OS thread `...)
		buf = strconv.AppendInt(buf, int64(p.tid0), 10)
		buf = append(buf, ", finished on OS thread "...)
		buf = strconv.AppendInt(buf, int64(p.tid1), 10)
	case p.status[d.field] == valProbeFailed:
		buf = append(buf, statusProbeFailed...)
	default:
		buf = append(buf, statusCollected+`","v":`...)
		buf = strconv.AppendInt(buf, p.vals[d.field], 10)
		return append(buf, '}')
	}
	return append(buf, `"}`...)
}

// appendEnd formats the recording_end record: per benchmark the spans
// observed (finished), retained (written: streamed or kept by the
// policy), omitted by the policy and never finished, and the outcomes of all observed spans.
func (r *Recorder) appendEnd(buf []byte, elapsed int64) []byte {
	buf = append(buf, `{"type":"recording_end","v":"`+schemaVersion+`","run_id":"`...)
	buf = append(buf, r.runID...)
	buf = append(buf, `","reason":"stopped","elapsed_ns":`...)
	buf = strconv.AppendInt(buf, elapsed, 10)
	buf = append(buf, `,"benchmarks":[`...)
	for i, b := range r.benchmarks {
		if i > 0 {
			buf = append(buf, ',')
		}
		// Streamed spans were all written; of those filed, the store's.
		kept := b.observed - b.filed + b.stored()
		for j, kv := range [...]struct {
			k string
			v int64
		}{{"index", int64(b.index)}, {"observed", b.observed}, {"retained", kept},
			{"omitted", b.observed - kept}, {"unfinished", b.unfinished}} {
			sep := byte(',')
			if j == 0 {
				sep = '{'
			}
			buf = append(buf, sep)
			buf = append(buf, `"`+kv.k+`":`...)
			buf = strconv.AppendInt(buf, kv.v, 10)
		}
		buf = append(buf, `,"outcomes":{`...)
		for o, n := range b.outcomes {
			if o > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, `"`+outcomeNames[o]+`":`...)
			buf = strconv.AppendInt(buf, n, 10)
		}
		buf = append(buf, "}}"...)
	}
	return append(buf, "]}\n"...)
}

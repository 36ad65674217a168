// Package ndjson defines the flybench record stream: one JSON object per line,
// each carrying its record type and the schema version, and the reader and
// writer every tool uses to exchange it.
//
// The schema is documented field by field in man/fb-stream.5. A reader accepts
// any minor version of the major version it knows and refuses other majors;
// unknown record types are passed through untouched by every stage.
//
// The record types are defined by the tools that produce them: the
// measurement (measurement.go: fb-pair and fb-sample), the analysis
// (analysis.go: fb-analyze), the host (host.go: fb-lock, fb-gate, the
// fingerprint and the environment report), the CI gate (check.go: fb-noise
// and fb-check), recordings (recording.go: fb-record) and the results
// store's series (history.go: fb-history); this file holds
// what every record shares.
package ndjson

// Schema version carried by every record. Additions that old readers can
// ignore bump the minor number; anything else bumps the major number.
const (
	Major   = 1
	Minor   = 7
	Version = "1.7"
	// LegacyVersion is the last version before the robust decision
	// estimate; fb-analyze --estimator legacy stamps its records with it,
	// since they have exactly that version's shape.
	LegacyVersion = "1.2"
)

// Record types produced by the measuring tools.
const (
	TypeRun         = "run"
	TypeCalibration = "calibration"
	TypeSample      = "sample"
	TypeEnd         = "end"
	// TypeLook is a checkpoint of a run that samples until a decision or
	// an interval width (schema 1.3).
	TypeLook = "look"
	// TypeCounter is a deterministic count measured once per case outside
	// the timed schedule, e.g. instructions under cachegrind (schema 1.4).
	TypeCounter = "counter"
	// TypeBlock closes one process block of a run collected with
	// --invocations (schema 1.4).
	TypeBlock = "block"
)

// Record types produced by the host tools and the interference watch.
const (
	TypeLock   = "lock"
	TypeGate   = "gate"
	TypeWindow = "window"
)

// Record types produced by fb-analyze.
const (
	TypeAnalysis    = "analysis"
	TypeSummary     = "summary"
	TypeComparison  = "comparison"
	TypeEnvironment = "environment"
	// TypeSuite is the geometric-mean speedup across the benchmarks of a
	// suite (several runs, or 3-16 cases), schema 1.4.
	TypeSuite = "suite"
	// TypeAA is the false-alarm summary of a series of A/A runs
	// (fb-pair --aa), schema 1.5.
	TypeAA = "aa"
)

// Record types produced by fb-noise and fb-check (schema 1.4).
const (
	TypeNoise = "noise"
	TypeCheck = "check"
)

// Record types produced by fb-history (schema 1.7).
const (
	TypeSeries = "series"
)

// Header is the part every record shares.
type Header struct {
	Type string `json:"type"`
	V    string `json:"v"`
}

func (h *Header) header() *Header { return h }

// Record is any record this package knows how to write.
type Record interface {
	header() *Header
	// Kind is the record's type field.
	Kind() string
}

func (*Run) Kind() string { return TypeRun }

func (*Calibration) Kind() string { return TypeCalibration }

func (*Sample) Kind() string { return TypeSample }

func (*End) Kind() string { return TypeEnd }

func (*Look) Kind() string { return TypeLook }

func (*Analysis) Kind() string { return TypeAnalysis }

func (*Summary) Kind() string { return TypeSummary }

func (*Comparison) Kind() string { return TypeComparison }

func (*Lock) Kind() string { return TypeLock }

func (*Gate) Kind() string { return TypeGate }

func (*Window) Kind() string { return TypeWindow }

func (*Environment) Kind() string { return TypeEnvironment }

func (*Counter) Kind() string { return TypeCounter }

func (*Suite) Kind() string { return TypeSuite }

func (*AA) Kind() string { return TypeAA }

func (*Noise) Kind() string { return TypeNoise }

func (*Check) Kind() string { return TypeCheck }

func (*Block) Kind() string { return TypeBlock }

func (*Series) Kind() string { return TypeSeries }

package model

// Keep says which of a stream's samples a load keeps. A stream is mostly
// samples, and most formats need none of them: a report is made of
// fb-analyze's records. Each format asks for what it draws or lists.
type Keep uint8

const (
	// KeepSamples keeps every sample record (the JSON document's
	// --samples).
	KeepSamples Keep = 1 << iota
	// KeepTimes keeps every sample's time per operation (hyperfine's
	// JSON lists every time).
	KeepTimes
	// KeepPoints keeps what the figures draw of the samples of a bounded,
	// seeded sample of each run's units (points.go).
	KeepPoints
	// KeepAll keeps all of the above.
	KeepAll = KeepSamples | KeepTimes | KeepPoints
)

// Time is one sample's time per operation, with its case and its place
// in collection order, and its rss_peak in bytes when the sample has one
// (hyperfine's memory_usage_byte).
type Time struct {
	Case, Seq int
	OpNS      float64
	PeakBytes *float64
}

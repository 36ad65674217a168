package words

// flags spells the fields the words name as fb-pair and fb-analyze call
// them (cli's table), for tests that compare the text users see.
func flags(path string) string {
	return map[string]string{
		FieldUntil: "--until", FieldMaxTime: "--max-time", FieldSizeSpread: "--size-spread",
		FieldLayout: "--randomize-layout", FieldSamples: "--samples", FieldOutcome: "--outcome",
	}[path]
}

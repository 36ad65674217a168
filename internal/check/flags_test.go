package check

// flags spells the options judgements name as the tools call them (cli's
// table), for tests that compare the text users see.
func flags(path string) string {
	return map[string]string{FieldNoise: "--noise", FieldBaseline: "--baseline"}[path]
}

// flagged are DefaultOptions spelling their options with flags.
var flagged = func() Options { o := DefaultOptions; o.Names = flags; return o }()

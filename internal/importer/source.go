package importer

// source is an imported file in the terms of a flybench run: the tool
// that wrote it and each benchmarked command's runs in the order they ran.
type source struct {
	// tool names the format's tool; it becomes the run's source field.
	tool string
	// timerNote says what the recorded times include and exclude.
	timerNote string
	// clock names the clock the times were read from, as far as known.
	clock string
	// failed says how a file comes to hold failed runs; zero why a time
	// is 0 and what to do about it.
	failed, zero string
	benchmarks   []benchmark
}

// benchmark is one command's runs.
type benchmark struct {
	// name is what the source calls the command; command is its command
	// line, as far as the source records it.
	name, command string
	// line is where the benchmark begins in the file.
	line   int
	params map[string]string
	// times are the runs' wall times in nanoseconds, in the order run.
	times []int64
	// failed counts runs that exited with a non-zero status or were
	// killed by a signal.
	failed int
}

// zeros counts the runs recorded as taking no time at all.
func (b *benchmark) zeros() int {
	n := 0
	for _, t := range b.times {
		if t == 0 {
			n++
		}
	}
	return n
}

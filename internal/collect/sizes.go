package collect

import "math"

// SizeNote says in one line what a varied batch size is for, for the run
// record.
const SizeNote = "every unit scales the calibrated batch sizes by one factor, the same for every case of the unit, drawn from the seed and the unit, log-uniform over the spread and scaled to a mean of 1: an operation's cost that depends on how many a batch holds shows in the samples (the size diagnostic of fb-analyze) instead of hiding in the estimate"

// SizeFactor is the factor by which unit u of a run with the given seed
// scales every case's calibrated batch size: log-uniform on
// [1/√spread, √spread], divided by that distribution's mean so a run keeps
// its budget on average; 1 when spread is 1 or less. It is a fixed
// function of the three (splitmix64 over a stream of its own, independent
// of LayoutPad's), so a stream's sizes can be recomputed, the cases of a
// unit share them, and a window collected again runs the sizes it ran.
func SizeFactor(seed uint64, u int, spread float64) float64 {
	if !(spread > 1) {
		return 1
	}
	z := splitmix64(seed ^ 0x5851f42d4c957f2d + (uint64(u)+1)*0x9e3779b97f4a7c15)
	x := float64(z>>11) / (1 << 53) // uniform on [0, 1)
	root := math.Sqrt(spread)
	mean := (root - 1/root) / math.Log(spread)
	return math.Pow(spread, x-0.5) / mean
}

// maxSize keeps a scaled size clear of int64 overflow.
const maxSize = 1 << 62

// unitSize is the batch size of a case calibrated to base operations in
// unit u: base scaled by the unit's factor, rounded, at least 1 and at
// most --max-iterations.
func (e *Engine) unitSize(u int, base int64) int64 {
	f := SizeFactor(e.Config.Seed, u, e.Config.SizeSpread)
	if f == 1 {
		return base
	}
	n := math.Min(math.Round(float64(base)*f), maxSize)
	return clamp(int64(n), 1, e.Config.MaxIterations)
}

// splitmix64 is the finalizer of Vigna's SplitMix64 generator: consecutive
// inputs give independent-looking outputs.
func splitmix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

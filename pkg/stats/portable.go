package stats

import "math"

// The logarithm and exponential here replace math.Log, math.Exp and
// math.Expm1 so that results are bit-identical on every platform: the
// standard library uses assembly for Log and Exp on some architectures
// and lets the compiler fuse multiply-adds elsewhere, and either can move
// the last bit. Every product below is rounded explicitly (float64(...)),
// which the Go specification says prevents fusion. Accuracy is within a
// few units in the last place, far below any timing resolution.

const (
	ln2Hi = 6.93147180369123816490e-01 // ln 2 with its low bits cleared, so k*ln2Hi is exact
	ln2Lo = 1.90821492927058770002e-10 // ln 2 - ln2Hi
)

// ln returns the natural logarithm of x for positive finite x; it
// returns NaN for x <= 0 or NaN, and +Inf for +Inf.
func ln(x float64) float64 {
	switch {
	case math.IsNaN(x) || x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	case math.IsInf(x, 1):
		return x
	}
	// x = f * 2^e with f in [sqrt(1/2), sqrt(2)), so |s| <= 0.172 below.
	f, e := math.Frexp(x)
	if f < math.Sqrt2/2 {
		f, e = 2*f, e-1
	}
	// ln f = 2 atanh(s) = 2 (s + s³/3 + s⁵/5 + ...), s = (f-1)/(f+1);
	// with s² <= 0.0295 the terms past s²¹/21 are below 1e-17 of the sum.
	s := (f - 1) / (f + 1)
	z := float64(s * s)
	p := 1.0 / 21
	for k := 19; k >= 1; k -= 2 {
		p = 1/float64(k) + float64(z*p)
	}
	k := float64(e)
	return float64(k*ln2Hi) + (float64(k*ln2Lo) + float64(2*s*p))
}

// exp returns e^x.
func exp(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x > 709.8:
		return math.Inf(1)
	case x < -745.2:
		return 0
	}
	k, r := reduceLn2(x)
	return math.Ldexp(1+expm1Small(r), k)
}

// expm1 returns e^x - 1, accurate near x = 0 where e^x - 1 would cancel.
// With x = k·ln2 + r it is 2^k·(e^r - 1) + (2^k - 1), both terms exact
// or nearly so.
func expm1(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x > 709.8:
		return math.Inf(1)
	case x < -40: // e^x is below half an ulp of 1
		return -1
	}
	k, r := reduceLn2(x)
	em := expm1Small(r)
	if k == 0 {
		return em
	}
	return math.Ldexp(em, k) + (math.Ldexp(1, k) - 1)
}

// reduceLn2 splits x into k*ln2 + r with integer k and |r| <= ln2/2
// (Cody and Waite's reduction: k*ln2Hi is exact, so r keeps full precision).
func reduceLn2(x float64) (int, float64) {
	k := math.Round(float64(x * (1 / math.Ln2)))
	return int(k), (x - float64(k*ln2Hi)) - float64(k*ln2Lo)
}

// expm1Small returns e^r - 1 for |r| <= ln2/2 from its Taylor series
// r (1 + r/2! + r²/3! + ... + r¹⁴/15!); the next term is below 1e-18.
func expm1Small(r float64) float64 {
	p := 1.0
	for k := 15; k >= 2; k-- {
		p = 1 + float64(p*r)/float64(k)
	}
	return float64(r * p)
}

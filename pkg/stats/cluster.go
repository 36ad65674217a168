package stats

import "math"

// Process blocks as clusters. When the pairs of a comparison come from
// several blocks of fresh processes (a worker mode run whose workers are
// restarted every so many pairs), every pair of one block shares whatever
// makes one process of a binary faster than another (its memory layout,
// its collector's phase, the CPU it settled on). Two processes of one
// build then differ by a block-wide shift that no amount of pairs inside
// the block averages away, and an interval computed from the pairs as a
// series covers only this particular draw of processes. The block is the
// replicate: the interval of the mean comes from how much the blocks'
// contributions vary, with Student's t on one degree of freedom fewer
// than there are blocks, so a run of a few blocks says how little it
// knows.

// ClusterMethod describes the interval of a clustered comparison in one
// line, for output records and help text.
const ClusterMethod = "Student's t over process blocks: the cluster-robust standard error of the mean (the spread of the blocks' sums of deviations, times K/(K-1)) with K-1 degrees of freedom (below 5 blocks widened to the pairs' own interval where that is wider)"

// minClusters is the fewest blocks a clustered interval is computed over;
// with fewer the interval would rest on no replicate at all.
const minClusters = 2

// clusterInterval is the confidence interval of the mean of x, whose
// values belong to the clusters named by cluster (one label per value):
// mean ± t(conf, K-1) · se with se² = K/(K-1) · Σ_k (Σ_{i∈k} (x_i - mean))² / n².
// It returns the mean, the interval and K; with fewer than minClusters
// clusters the interval is NaN.
func clusterInterval(x []float64, cluster []int32, confidence float64) (center, lo, hi float64, k int) {
	center = Mean(x)
	index := map[int32]int{} // a label's place in sums, in order of first appearance
	var sums []float64
	for i, v := range x {
		j, ok := index[cluster[i]]
		if !ok {
			j = len(sums)
			index[cluster[i]] = j
			sums = append(sums, 0)
		}
		sums[j] += v - center
	}
	k = len(sums)
	if k < minClusters {
		return center, math.NaN(), math.NaN(), k
	}
	var ss float64
	for _, s := range sums {
		ss += s * s
	}
	n := float64(len(x))
	se := math.Sqrt(float64(k) / float64(k-1) * ss / (n * n))
	half := studentQuantile(1-(1-confidence/100)/2, float64(k-1)) * se
	return center, center - half, center + half, k
}

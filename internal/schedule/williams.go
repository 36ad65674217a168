package schedule

import "slices"

// Williams is a Williams-style row cycle for k cases: every row is a
// permutation of 0..k-1, every case occupies every position equally often
// across the rows, and every ordered pair of distinct cases is adjacent
// (one directly after the other) equally often. For even k the k rows of a
// Williams square do it; for odd k the square cannot balance first-order
// carryover, and its k rows reversed are appended: 2k rows.
func Williams(k int) [][]int {
	first := make([]int, k)
	for j := 1; j < k; j++ {
		if j%2 == 1 {
			first[j] = (j + 1) / 2
		} else {
			first[j] = k - j/2
		}
	}
	rows := make([][]int, 0, 2*k)
	for r := 0; r < k; r++ {
		row := make([]int, k)
		for j, a := range first {
			row[j] = (a + r) % k
		}
		rows = append(rows, row)
	}
	if k%2 == 1 && k > 1 {
		for r := 0; r < k; r++ {
			rows = append(rows, reversed(rows[r]))
		}
	}
	return rows
}

func reversed(row []int) []int {
	out := slices.Clone(row)
	slices.Reverse(out)
	return out
}

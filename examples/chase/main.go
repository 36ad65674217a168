// Command chase is the memory-bound benchmark program: a dependent pointer
// chase through -mib MiB in one random cycle, -n steps long. Every step
// loads the next position from the line the last step found, so the loads
// cannot overlap and each one waits on the cache and memory hierarchy;
// chase -n 200000 against chase -n 204000 is exactly 2% more chasing.
//
// The cycle is built once per run, with a fixed seed, by Sattolo's
// algorithm over the buffer's 64-byte lines (2 MiB of indices for 32 MiB);
// each line holds the index of the next. On the 2-CPU VM this was tuned
// on, building (mostly the first touch of 32 MiB) takes about 25 ms and
// the default 200,000 steps about 40 ms, some 190 ns per dependent load.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
)

const (
	lineWords = 8 // uint64 words per 64-byte cache line
	seed      = 19
)

func main() {
	mib := flag.Int("mib", 32, "size of the chased buffer in MiB (at least 16)")
	n := flag.Int("n", 200_000, "chase steps")
	flag.Parse()
	if *mib < 16 || *n < 0 {
		fmt.Fprintln(os.Stderr, "chase: need -mib >= 16 and -n >= 0")
		os.Exit(2)
	}
	next := cycle(*mib << 20 / 8)
	fmt.Println(chase(next, *n))
}

// cycle is a buffer of words in which the first word of every line holds
// the index of the first word of the next line of one random cycle
// through all the lines.
func cycle(words int) []uint64 {
	lines := words / lineWords
	order := make([]uint32, lines)
	for i := range order {
		order[i] = uint32(i)
	}
	// Sattolo's algorithm: swapping each position only with an earlier
	// one makes a single cycle of every line.
	rng := rand.New(rand.NewPCG(seed, seed))
	for i := lines - 1; i > 0; i-- {
		j := rng.IntN(i)
		order[i], order[j] = order[j], order[i]
	}
	next := make([]uint64, words)
	for i, to := range order {
		next[i*lineWords] = uint64(to) * lineWords
	}
	return next
}

// chase follows the cycle from word 0 for n steps and returns where it
// ends, which the caller prints so the loads cannot be optimized away.
func chase(next []uint64, n int) uint64 {
	at := uint64(0)
	for i := 0; i < n; i++ {
		at = next[at]
	}
	return at
}

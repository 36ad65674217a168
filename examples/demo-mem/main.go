// Command demo-mem is one side of the resource-axes example: it does its
// work by filling and summing a 12 MiB table, so it touches a lot of
// memory (page faults, peak RSS) for about the same wall time as demo-cpu.
package main

import (
	"fmt"
	"os"
	"strconv"
)

func main() {
	mib := 12
	if len(os.Args) > 1 {
		if v, err := strconv.Atoi(os.Args[1]); err == nil && v > 0 {
			mib = v
		}
	}
	table := make([]uint64, mib<<17) // 8 bytes each: mib MiB
	x := uint64(0x9e3779b97f4a7c15)
	for i := range table {
		x ^= x >> 31
		x *= 0xbf58476d1ce4e5b9
		table[i] = x
	}
	var sum uint64
	for _, v := range table {
		sum += v
	}
	fmt.Println(sum)
}

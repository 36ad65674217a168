// Command fb-refwork runs flybench's built-in reference workloads; see man fb-refwork(1).
package main

import (
	"os"

	"github.com/flybench/flybench/internal/refwork"
)

func main() { os.Exit(refwork.Main()) }

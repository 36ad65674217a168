// Command fb-refwork runs flybench's built-in reference workloads; see man fb-refwork(1).
package main

import (
	"os"

	"github.com/flybench/flybench/internal/cli"
)

func main() { os.Exit(cli.Main("fb-refwork")) }

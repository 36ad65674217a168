// Command fb-noise is one stage of the flybench pipeline; see man fb-noise(1).
package main

import (
	"os"

	"github.com/flybench/flybench/internal/cli"
)

func main() { os.Exit(cli.Main("fb-noise")) }

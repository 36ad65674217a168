// Command fb-pair is one stage of the flybench pipeline; see man fb-pair(1).
package main

import (
	"os"

	"github.com/flybench/flybench/internal/cli"
)

func main() { os.Exit(cli.Main("fb-pair")) }

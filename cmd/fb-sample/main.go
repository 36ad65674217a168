// Command fb-sample is one stage of the flybench pipeline; see man fb-sample(1).
package main

import (
	"os"

	"github.com/flybench/flybench/internal/cli"
)

func main() { os.Exit(cli.Main("fb-sample")) }

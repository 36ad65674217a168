// Command fb-history is flybench's results store; see man fb-history(1).
package main

import (
	"os"

	"github.com/flybench/flybench/internal/cli"
)

func main() { os.Exit(cli.Main("fb-history")) }

// Command fb-check is the flybench CI gate; see man fb-check(1).
package main

import (
	"os"

	"github.com/flybench/flybench/internal/cli"
)

func main() { os.Exit(cli.Main("fb-check")) }

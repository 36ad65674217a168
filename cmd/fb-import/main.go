// Command fb-import turns another benchmark tool's results into a flybench stream; see man fb-import(1).
package main

import (
	"os"

	"github.com/flybench/flybench/internal/cli"
)

func main() { os.Exit(cli.Main("fb-import")) }

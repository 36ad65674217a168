// Command fb-record records spans a program drives, with a live display; see man fb-record(1).
package main

import (
	"os"

	"github.com/flybench/flybench/internal/cli"
)

func main() { os.Exit(cli.Main("fb-record")) }

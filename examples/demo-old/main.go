// Command demo-old is the reference of the built-in example: 6,000,000
// mixing steps (about 20 ms of work plus process start-up). demo-new does 10% fewer.
package main

import (
	"fmt"

	"github.com/flybench/flybench/examples/mix"
)

func main() { fmt.Println(mix.Run(6_000_000)) }

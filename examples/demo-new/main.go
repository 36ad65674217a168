// Command demo-new is the contender of the built-in example: it does 10%
// fewer mixing steps than demo-old (5,400,000), a known, modest difference.
package main

import (
	"fmt"

	"github.com/flybench/flybench/examples/mix"
)

func main() { fmt.Println(mix.Run(5_400_000)) }

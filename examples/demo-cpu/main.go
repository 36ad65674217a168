// Command demo-cpu is the other side of the resource-axes example: the
// same kind of arithmetic as demo-mem in registers only, tuned to take
// about as long, so wall time is close while memory axes differ sharply.
package main

import (
	"fmt"

	"github.com/flybench/flybench/examples/mix"
)

func main() { fmt.Println(mix.Run(23_500_000)) }

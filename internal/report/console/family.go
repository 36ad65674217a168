package console

import (
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

// family prints the run's family row under its comparisons.
func (c *console) family(r *model.Run) {
	if text := words.Family(r); text != "" {
		c.line("")
		c.row("family", text)
	}
}

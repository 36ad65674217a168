package console

import (
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

// aaCards prints a card per A/A series after the runs.
func (c *console) aaCards(runs []*model.Run) {
	for _, a := range model.AAs(runs) {
		c.title("=", words.AATitle(&a))
		c.row("false", words.AAFalse(&a))
		c.row("intervals", words.AAInterval(&a))
		if text := words.AASpread(&a); text != "" {
			c.row("scatter", text)
		}
		c.row("verdicts", words.AAVerdicts(&a))
		if text := words.AASize(&a); text != "" {
			c.row("sizes", text)
		}
		if text := words.AASpreadWarning(&a); text != "" {
			c.warning(text)
		}
		if a.Runs < a.Planned {
			c.warning(fmt.Sprintf("%d of %d runs were analysed: the series stopped early", a.Runs, a.Planned))
		}
	}
}

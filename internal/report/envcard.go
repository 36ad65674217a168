package report

import "github.com/flybench/flybench/internal/report/model"

// environment prints what the harness observed about the host, when the
// run has fb-analyze's environment record. A run that repaired itself
// says so on its own line, in yellow, so a repaired result never reads as
// a quieter machine than the one it ran on.
func (c *console) environment(r *model.Run) {
	e := r.Environment
	if e == nil {
		return
	}
	c.title("-", "environment")
	c.row("host", claimText(r)+"    "+gateText(r))
	c.row("placement", placementText(r))
	c.row("watch", watchText(r))
	c.repairs(r)
	c.row("conditions", conditionsText(r))
	if impact := conditionsImpact(e.Conditions); impact != "" {
		c.row("", impact)
	}
	for _, w := range envWarnings(r) {
		c.warning(w)
	}
}

// repairs prints the repairs line: the windows collected again and the
// samples kept while contaminated, or "none" when the watch was on and
// had nothing to repair.
func (c *console) repairs(r *model.Run) {
	text := model.JoinNonEmpty([]string{repairsText(r), contaminatedText(r.Environment)}, "; ")
	switch {
	case text != "":
		c.paintedRow("repairs", sgrYellow, text)
	case watchOn(r):
		c.row("repairs", "none")
	}
}

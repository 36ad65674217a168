package console

import (
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

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
	c.row("host", words.Claim(r)+"    "+words.Gate(r))
	c.row("placement", words.Placement(r))
	c.row("watch", words.Watch(r))
	c.repairs(r)
	c.row("conditions", words.Conditions(r))
	if impact := words.ConditionsImpact(e.Conditions); impact != "" {
		c.row("", impact)
	}
	for _, w := range words.HostWarnings(r) {
		c.warning(w)
	}
}

// repairs prints the repairs line: the windows collected again and the
// samples kept while contaminated, or "none" when the watch was on and
// had nothing to repair.
func (c *console) repairs(r *model.Run) {
	text := model.JoinNonEmpty([]string{words.Repairs(r), words.Contaminated(r.Environment)}, "; ")
	switch {
	case text != "":
		c.paintedRow("repairs", SGRYellow, text)
	case words.WatchOn(r):
		c.row("repairs", "none")
	}
}

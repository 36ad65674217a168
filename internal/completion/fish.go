package completion

import (
	"fmt"
	"strings"
)

// fishScript is one complete command per flag; fish completes files for
// arguments and for flag values without choices by itself.
func fishScript(s Spec) string {
	var b strings.Builder
	b.WriteString(header("fish", s.Tool))
	for _, f := range s.Flags {
		fmt.Fprintf(&b, "complete -c %s", s.Tool)
		for _, n := range f.Names {
			if len(n) == 1 {
				fmt.Fprintf(&b, " -s %s", n)
			} else {
				fmt.Fprintf(&b, " -l %s", n)
			}
		}
		if len(f.Choices) > 0 {
			fmt.Fprintf(&b, " -x -a %s", fishQuote(strings.Join(f.Choices, " ")))
		} else if f.TakesValue {
			b.WriteString(" -r")
		}
		if f.Usage != "" {
			fmt.Fprintf(&b, " -d %s", fishQuote(f.Usage))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// fishQuote single-quotes text for fish.
func fishQuote(text string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(text) + "'"
}

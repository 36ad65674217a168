package check

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/flybench/flybench/pkg/ndjson"
)

// markdownHeadline is the headline with its sign, for a pull request or
// a CI step summary.
func markdownHeadline(res Result) string {
	switch res.Outcome {
	case ndjson.CheckRegressed:
		return "❌ " + res.Headline()
	case ndjson.CheckCannotJudge:
		return "⚠️ " + res.Headline()
	}
	return "✅ " + res.Headline()
}

// writeMarkdown writes the headline, the rules, and a GitHub-flavoured
// table per run with its outcome and reasons.
func writeMarkdown(w *bytes.Buffer, res Result, all []*Run, ro Render) {
	fmt.Fprintf(w, "### %s\n\n%s.<br>%s\n", markdownHeadline(res), capitalize(rules(ro.Options)), mdEscape(noiseLine(ro)))
	for i, r := range all {
		ck := res.Checks[i]
		fmt.Fprintf(w, "\n**%s**: %s\n", mdEscape(describeRun(r)), runOutcome(ck))
		for _, why := range ck.Reasons {
			fmt.Fprintf(w, "\n> %s %s\n", markdownLabel(ck), mdEscape(why))
		}
		if len(ck.Items) > 0 {
			w.WriteString("\n")
			writeMarkdownTable(w, ck.Items)
		}
	}
}

func markdownLabel(ck ndjson.Check) string {
	if ck.Advisory {
		return "⚠️ **advisory:**"
	}
	return "**note:**"
}

func writeMarkdownTable(w *bytes.Buffer, items []ndjson.CheckItem) {
	w.WriteString("| " + strings.Join(columns, " | ") + " |\n")
	w.WriteString("|---|---|---|---|--:|--:|--:|---|---|\n")
	for _, it := range items {
		cells := row(it)
		for j := range cells {
			cells[j] = mdEscape(cells[j])
		}
		cells[7] = markdownResult(it.Outcome)
		w.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
}

func markdownResult(outcome string) string {
	switch outcome {
	case ndjson.CheckItemFail:
		return "❌ fail"
	case ndjson.CheckItemPass:
		return "✅ pass"
	}
	return "⏭️ skip"
}

// mdEscape keeps a cell's text from being read as table or markup syntax.
func mdEscape(s string) string {
	r := strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", ">", "&gt;")
	return r.Replace(s)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

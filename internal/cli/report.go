package cli

import (
	"errors"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/report"
	"github.com/flybench/flybench/pkg/ndjson"
)

func reportApp(env Env) *ucli.App {
	app := newApp(env, "fb-report", "format an analyzed stream as console cards, CSV, JSON, Markdown, HTML or an SVG plot",
		"[FILE...]",
		"Reads analyzed streams (fb-analyze output) from the files or stdin and writes one report.\n"+
			"Console output uses ANSI colour only on a terminal and never when NO_COLOR is set.\n"+
			"A last line cut short (no newline) ends the input with a warning in every format.\n\n"+
			"Exit status: 0 ok, 1 an internal error, 2 usage, 3 a bad input line, 4 unknown schema version,\n"+
			"6 a run without its analysis (not analyzed: pipe it through fb-analyze; or cut short before it),\n"+
			"14 the report could not be written, 130/143 SIGINT/SIGTERM: the input was read to its end and\n"+
			"reported (a second signal stops at once).")
	app.Flags = []ucli.Flag{
		&ucli.StringFlag{Name: "format", Category: output, Aliases: []string{"f"}, Value: "console", Usage: "console, csv, json, markdown, long-csv (one row per axis per case and comparison), hyperfine-json (hyperfine --export-json), html (one self-contained page with the plots), svg (one plot, --plot), gobench (every sample in Go's benchmark format, for benchstat) or bmf (Bencher Metric Format)"},
		&ucli.BoolFlag{Name: "details", Category: output, Usage: "3+ cases: every case's card and comparison card after the table (always in html)"},
		&ucli.StringFlag{Name: "color", Category: output, Value: "auto", Usage: "console colour: auto, always or never"},
		&ucli.BoolFlag{Name: "samples", Category: output, Usage: "json: include every raw sample"},
		&ucli.StringFlag{Name: "plot", Category: output, Usage: "svg: the plot to write: " + strings.Join(report.PlotNames(), ", ")},
		&ucli.StringFlag{Name: "run", Category: output, Usage: "svg: the run (or recording) whose plot to write, by run id prefix, when several have it"},
	}
	app.Action = interruptible(env, "fb-report", "reported", func(c *ucli.Context) error {
		opt := report.Options{Format: c.String("format"), Details: c.Bool("details"), Samples: c.Bool("samples"),
			Plot: c.String("plot"), Run: c.String("run"), Names: flagName}
		if err := report.CheckOptions(opt, c.IsSet("plot"), c.IsSet("run")); err != nil {
			return fieldUsage(err)
		}
		color, err := useColor(c.String("color"), env)
		if err != nil {
			return err
		}
		opt.Color = color
		all := &report.Stream{}
		err = eachInput(c, env, func(r *ndjson.Reader) error {
			got, err := report.LoadFor(r, opt)
			all.Add(got)
			warnTorn(env, "fb-report", r)
			return streamError(err, "fix or remove that line; no report was written")
		})
		if err != nil {
			return err
		}
		err = report.WriteStream(env.Stdout, all, opt)
		var nae *report.NotAnalyzedError
		if errors.As(err, &nae) {
			return withCode(ExitNotAnalyzed, err, "")
		}
		var pe *report.PlotError
		var se *report.SeriesError
		switch {
		case errors.As(err, &pe):
			return withCode(ExitUsage, pe.Named(flagName), "")
		case errors.As(err, &se):
			return withCode(ExitUsage, se.Named(flagName), "")
		}
		return err // a write error: ExitOutput (printError)
	})
	return app
}

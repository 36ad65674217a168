package cli

import (
	"errors"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/report"
	"github.com/flybench/flybench/pkg/ndjson"
)

func reportApp(env Env) *ucli.App {
	app := newApp(env, "fb-report", "format an analyzed stream as console cards, CSV, JSON, Markdown or HTML",
		"[FILE...]",
		"Reads analyzed streams (fb-analyze output) from the files or stdin and writes one report.\n"+
			"Console output uses ANSI colour only on a terminal and never when NO_COLOR is set.\n"+
			"A last line cut short (no newline) ends the input with a warning in every format.\n\n"+
			"Exit status: 0 ok, 1 the report could not be written, 2 usage, 3 a bad input line,\n"+
			"4 unknown schema version, 6 the stream was not analyzed (pipe it through fb-analyze).")
	app.Flags = []ucli.Flag{
		&ucli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "console", Usage: "console, csv, json, markdown, long-csv (one row per axis per case and comparison) hyperfine-json (hyperfine --export-json) or html (one self-contained page with the plots)"},
		&ucli.BoolFlag{Name: "details", Usage: "3+ cases: every case's card and comparison card after the table"},
		&ucli.StringFlag{Name: "color", Value: "auto", Usage: "console colour: auto, always or never"},
		&ucli.BoolFlag{Name: "samples", Usage: "json: include every raw sample"},
	}
	app.Action = func(c *ucli.Context) error {
		opt := report.Options{Format: c.String("format"), Details: c.Bool("details"), Samples: c.Bool("samples")}
		if !validFormat(opt.Format) {
			return usageErrorf("--format %q: use %s", opt.Format, strings.Join(report.Formats(), ", "))
		}
		color, err := useColor(c.String("color"), env)
		if err != nil {
			return err
		}
		opt.Color = color
		all := &report.Stream{}
		err = eachInput(c, env, func(r *ndjson.Reader) error {
			got, err := report.LoadStream(r)
			if got != nil {
				all.Runs = append(all.Runs, got.Runs...)
				all.Recordings = append(all.Recordings, got.Recordings...)
			}
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
		return err // a write error: exit 1
	}
	return app
}

func validFormat(f string) bool {
	for _, v := range report.Formats() {
		if f == v {
			return true
		}
	}
	return false
}

// useColor decides console colour: "auto" means a terminal and no NO_COLOR.
func useColor(mode string, env Env) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		return env.Getenv("NO_COLOR") == "" && isTerminal(env.Stdout), nil
	}
	return false, usageErrorf("--color %q: use auto, always or never", mode)
}

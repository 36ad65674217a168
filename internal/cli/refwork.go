package cli

import (
	"errors"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/refwork"
)

// refworkApp is fb-refwork (package refwork, a small program of its own)
// with this package's streams and exit codes.
func refworkApp(env Env) *ucli.App {
	app := refwork.App(env.Stderr, env.Getenv)
	app.Reader, app.Writer = env.Stdin, env.Stdout
	for _, f := range app.Flags { // refwork's own binary lists them ungrouped
		switch f := f.(type) {
		case *ucli.Int64Flag:
			f.Category = budget // --iterations
		case *ucli.BoolFlag:
			f.Category = output // --verbose, --report
		}
	}
	action := app.Action
	app.Action = func(c *ucli.Context) error { return refworkCode(action(c)) }
	onUsage := app.OnUsageError
	app.OnUsageError = func(c *ucli.Context, err error, sub bool) error { return refworkCode(onUsage(c, err, sub)) }
	return app
}

// refworkCode gives a refwork usage error exit status 2, and a report
// channel it could not write ExitOutput.
func refworkCode(err error) error {
	var ue *refwork.UsageError
	if errors.As(err, &ue) {
		return withCode(ExitUsage, err, "")
	}
	if errors.As(err, new(*refwork.OutputError)) {
		return withCode(ExitOutput, err, "")
	}
	return err
}

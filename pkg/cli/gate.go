package cli

import ucli "github.com/urfave/cli/v2"

// gateApp is fb-gate (placeholder until the quiescence gate lands).
func gateApp(env Env) *ucli.App {
	return newApp(env, "fb-gate", "wait for a quiet host, then run a program", "PROGRAM [ARGS...]", "")
}

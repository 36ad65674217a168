package cli

import ucli "github.com/urfave/cli/v2"

// lockApp is fb-lock (placeholder until the claim convention lands).
func lockApp(env Env) *ucli.App {
	return newApp(env, "fb-lock", "take the host CPU claim, then run a program", "PROGRAM [ARGS...]", "")
}

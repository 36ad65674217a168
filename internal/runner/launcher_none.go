//go:build !(linux && amd64)

package runner

// There is no launcher for this platform: Peak falls back to the next
// method.
var launcherCode []byte

const launcherMachine = 0

const launcherAsm = ""

package runner

import (
	"fmt"
	"os"
	"strings"
)

// LayoutVar is the environment variable whose length varies the memory
// layout a command's processes start with (layout-bias randomization):
// execve copies the environment onto the new process's stack, so every
// byte of padding moves the initial stack pointer and whatever the
// program places relative to it.
const LayoutVar = "FLYBENCH_LAYOUT_PAD"

// LayoutEnv is env (nil: the tool's own) with any LayoutVar removed and an
// empty one appended: the environment of a command prepared for
// SetLayoutPad. The slice is new on every call.
func LayoutEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, LayoutVar+"=") {
			out = append(out, kv)
		}
	}
	return append(out, LayoutVar+"=")
}

// SetLayoutPad makes every later run start with LayoutVar set to n bytes
// of padding. The command must have been prepared with LayoutEnv. It is
// called between batches, never inside a timed one.
func (c *Command) SetLayoutPad(n int) error {
	if n < 0 {
		return fmt.Errorf("layout padding %d is negative", n)
	}
	prefix := LayoutVar + "="
	for i, kv := range c.attr.Env {
		if strings.HasPrefix(kv, prefix) {
			c.attr.Env[i] = prefix + strings.Repeat("x", n)
			return nil
		}
	}
	return fmt.Errorf("%s was not prepared with %s in its environment", DisplayArgv(c.argv), LayoutVar)
}

package completion

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Mentions reports whether a shell's script offers the flag name (without
// dashes) as that shell's completion syntax spells it.
func Mentions(shell, script, name string) bool {
	switch shell {
	case "fish":
		opt := " -l " + name + " "
		if len(name) == 1 {
			opt = " -s " + name + " "
		}
		return strings.Contains(script, opt)
	case "zsh":
		d := dashed(name)
		return strings.Contains(script, "'"+d+"[") || strings.Contains(script, "'"+d+"=[") ||
			strings.Contains(script, "'*"+d+"[") || strings.Contains(script, "'*"+d+"=[") ||
			strings.Contains(script, "{"+d) || strings.Contains(script, ","+d)
	}
	return strings.Contains(script, " "+dashed(name)+" ") || strings.Contains(script, "\""+dashed(name)+" ") ||
		strings.Contains(script, " "+dashed(name)+"\"")
}

// Parse checks a script's syntax with the shell itself (bash -n, zsh -n,
// fish -n); ok is false when the shell is not installed.
func Parse(shell, script string) (ok bool, err error) {
	path, err := exec.LookPath(shell)
	if err != nil {
		return false, nil
	}
	f, err := os.CreateTemp("", "completion-*")
	if err != nil {
		return true, err
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(script); err != nil {
		return true, err
	}
	f.Close()
	if out, err := exec.Command(path, "-n", f.Name()).CombinedOutput(); err != nil {
		return true, fmt.Errorf("%s -n: %v: %s", shell, err, out)
	}
	return true, nil
}

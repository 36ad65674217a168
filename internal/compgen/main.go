// Command compgen writes the shell completion scripts of every flybench
// tool into completions/bash, completions/zsh and completions/fish, under
// the names each shell looks them up by.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/flybench/flybench/internal/cli"
	"github.com/flybench/flybench/internal/completion"
)

func main() {
	out := flag.String("out", "completions", "directory of the scripts, one subdirectory per shell")
	check := flag.Bool("check", false, "compare with the written scripts instead of writing them")
	flag.Parse()
	stale, err := Generate(*out, *check)
	if err != nil {
		fmt.Fprintln(os.Stderr, "compgen:", err)
		os.Exit(1)
	}
	if len(stale) > 0 {
		fmt.Fprintf(os.Stderr, "compgen: out of date: %s (run make completions)\n", strings.Join(stale, ", "))
		os.Exit(1)
	}
}

// Generate writes dir/SHELL/FILE for every shell and tool. With check it
// writes nothing and returns the files that differ.
func Generate(dir string, check bool) ([]string, error) {
	var stale []string
	for _, shell := range completion.Shells {
		if !check {
			if err := os.MkdirAll(filepath.Join(dir, shell), 0o755); err != nil {
				return nil, err
			}
		}
		for _, tool := range cli.Tools() {
			script, err := completion.Script(shell, cli.CompletionSpec(tool))
			if err != nil {
				return nil, err
			}
			target := filepath.Join(dir, shell, completion.FileName(shell, tool))
			if check {
				if old, err := os.ReadFile(target); err != nil || string(old) != script {
					stale = append(stale, target)
				}
				continue
			}
			if err := os.WriteFile(target, []byte(script), 0o644); err != nil {
				return nil, err
			}
		}
	}
	return stale, nil
}

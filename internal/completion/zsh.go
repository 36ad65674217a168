package completion

import (
	"fmt"
	"strings"
)

// zshScript is an _arguments specification: every flag with its
// description, the choices of a flag that has them, files for every other
// value and for the arguments.
func zshScript(s Spec) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#compdef %s\n", s.Tool)
	b.WriteString(header("zsh", s.Tool))
	b.WriteString("_arguments -S \\\n")
	for _, f := range s.Flags {
		fmt.Fprintf(&b, "  %s \\\n", zshSpec(f))
	}
	b.WriteString("  '*:file:_files'\n")
	return b.String()
}

// zshSpec is one flag's _arguments specification.
func zshSpec(f Flag) string {
	names := make([]string, len(f.Names))
	for i, n := range f.Names {
		names[i] = dashed(n)
		if f.TakesValue && len(n) > 1 {
			names[i] += "="
		} else if f.TakesValue {
			names[i] += "+"
		}
	}
	prefix := ""
	if f.Repeatable {
		prefix = "*"
	}
	spec := "'" + prefix
	if len(names) > 1 {
		spec = "'(" + strings.Join(spelled(f), " ") + ")'" + prefix + "{" + strings.Join(names, ",") + "}'"
	} else {
		spec += names[0]
	}
	spec += "[" + zshQuote(f.Usage) + "]"
	if f.TakesValue {
		action := "_files"
		if len(f.Choices) > 0 {
			action = "(" + strings.Join(f.Choices, " ") + ")"
		}
		spec += ":" + f.Names[0] + ":" + action
	}
	return spec + "'"
}

// zshQuote makes text safe inside a single-quoted description in brackets.
func zshQuote(text string) string {
	return strings.NewReplacer(`\`, `\\`, "'", `'\''`, "[", `\[`, "]", `\]`, ":", `\:`).Replace(text)
}

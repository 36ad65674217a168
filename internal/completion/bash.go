package completion

import (
	"fmt"
	"strings"
)

// bashScript completes flag names after a dash, the choices after a flag
// that has them (as --flag VALUE or --flag=VALUE), and files elsewhere
// and after a "--".
func bashScript(s Spec) string {
	var b strings.Builder
	fn := "_" + strings.ReplaceAll(s.Tool, "-", "_")
	b.WriteString(header("bash", s.Tool))
	fmt.Fprintf(&b, "%s() {\n", fn)
	b.WriteString("    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"\"\n")
	b.WriteString("    if [ \"$COMP_CWORD\" -gt 0 ]; then prev=\"${COMP_WORDS[COMP_CWORD-1]}\"; fi\n")
	b.WriteString("    if [ \"$prev\" = \"=\" ] && [ \"$COMP_CWORD\" -gt 1 ]; then prev=\"${COMP_WORDS[COMP_CWORD-2]}\"; fi\n")
	b.WriteString("    if [ \"$cur\" = \"=\" ]; then prev=\"${COMP_WORDS[COMP_CWORD-1]}\"; cur=\"\"; fi\n")
	b.WriteString("    local i\n    for ((i = 1; i < COMP_CWORD; i++)); do\n")
	b.WriteString("        if [ \"${COMP_WORDS[i]}\" = \"--\" ]; then COMPREPLY=($(compgen -f -- \"$cur\")); return; fi\n    done\n")
	b.WriteString("    case \"$prev\" in\n")
	var files []string
	for _, f := range s.Flags {
		if !f.TakesValue {
			continue
		}
		if len(f.Choices) == 0 {
			files = append(files, spelled(f)...)
			continue
		}
		fmt.Fprintf(&b, "        %s)\n            COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n",
			strings.Join(spelled(f), "|"), strings.Join(f.Choices, " "))
	}
	if len(files) > 0 {
		fmt.Fprintf(&b, "        %s)\n            COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", strings.Join(files, "|"))
	}
	b.WriteString("    esac\n")
	var all []string
	for _, f := range s.Flags {
		all = append(all, spelled(f)...)
	}
	fmt.Fprintf(&b, "    case \"$cur\" in\n        -*)\n            COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n    esac\n",
		strings.Join(all, " "))
	b.WriteString("    COMPREPLY=($(compgen -f -- \"$cur\"))\n}\n")
	fmt.Fprintf(&b, "complete -o filenames -o bashdefault -F %s %s\n", fn, s.Tool)
	return b.String()
}

// spelled is every name of f as typed.
func spelled(f Flag) []string {
	out := make([]string, len(f.Names))
	for i, n := range f.Names {
		out[i] = dashed(n)
	}
	return out
}

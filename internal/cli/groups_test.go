package cli

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestFlagGroups: every flag of every tool has a group (build panics
// otherwise), and --help lists the groups in flagGroupOrder with every
// flag once.
func TestFlagGroups(t *testing.T) {
	for _, tool := range Tools() {
		app := App(tool)
		names, flags := FlagGroups(app)
		last := -1
		for i, name := range names {
			at := slices.Index(flagGroupOrder, name)
			if at <= last {
				t.Errorf("%s: group %q out of order in %v", tool, name, names)
			}
			last = at
			if len(flags[i]) == 0 {
				t.Errorf("%s: group %q has no flags", tool, name)
			}
		}
		var out bytes.Buffer
		env := StdEnv()
		env.Stdout = &out
		if code := Run(tool, []string{tool, "--help"}, env); code != 0 {
			t.Fatalf("%s --help: exit %d", tool, code)
		}
		help := out.String()
		prev := -1
		for _, name := range names {
			at := strings.Index(help, "\n   "+name+":\n")
			if at <= prev {
				t.Errorf("%s --help: group %q missing or out of order", tool, name)
			}
			prev = at
		}
		for _, f := range app.Flags {
			if !strings.Contains(help, "--"+f.Names()[0]+" ") && !strings.Contains(help, "--"+f.Names()[0]+",") {
				t.Errorf("%s --help does not list --%s", tool, f.Names()[0])
			}
		}
	}
}

package measure

import (
	"os"
	"path/filepath"

	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
)

// programOf is the file argv starts from the working directory dir (""
// for this process's): its first word as the runner finds it (in PATH
// when it holds no slash, else relative to dir), made absolute, and the
// file it resolves to when that is a symbolic link itself (a linked
// directory above it is not recorded). Nil for a command run through the
// shell and for one that is not found.
func programOf(argv []string, dir string) *ndjson.Program {
	if len(argv) == 0 || (argv[0] == runner.ShellPath && len(argv) > 1 && argv[1] == "-c") {
		return nil
	}
	abs, err := runner.LookPath(argv[0], dir)
	if err != nil {
		return nil
	}
	st, err := os.Lstat(abs)
	if err != nil {
		return nil
	}
	p := &ndjson.Program{Path: abs}
	if st.Mode()&os.ModeSymlink != 0 {
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			p.Link = real
		}
	}
	return p
}

package tests

import (
	"bufio"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/flybench/flybench/"

// mapEntry is one package of docs/architecture.md: what it may import of
// this module, and of which outside modules it is the only importer.
type mapEntry struct {
	allowed []string
	line    int
}

// readMap reads docs/architecture.md: a "### path" heading per package,
// then a paragraph, then a line "May import: a, b, c." (or "May import:
// nothing of this module.").
func readMap(t *testing.T) map[string]*mapEntry {
	t.Helper()
	f, err := os.Open("../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]*mapEntry{}
	var cur string
	heading := regexp.MustCompile("^### `?([a-z0-9/_-]+)`?$")
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := heading.FindStringSubmatch(line); m != nil {
			cur = m[1]
			out[cur] = &mapEntry{line: n}
			continue
		}
		rest, ok := strings.CutPrefix(line, "May import: ")
		if !ok || cur == "" {
			continue
		}
		rest = strings.TrimSuffix(rest, ".")
		if rest != "nothing of this module" {
			for _, p := range strings.Split(rest, ",") {
				out[cur].allowed = append(out[cur].allowed, strings.Trim(strings.TrimSpace(p), "`"))
			}
		}
		cur = ""
	}
	return out
}

// packageImports lists the imports of the non-test Go files of every
// package directory under the module root.
func packageImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != ".." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, "../")))
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		for _, im := range f.Imports {
			out[pkg] = append(out[pkg], strings.Trim(im.Path.Value, `"`))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestArchitectureMap fails when a package imports a package of this
// module that docs/architecture.md does not allow it, when a library
// package is missing from the map, and when urfave/cli or gonum's plot is
// imported outside the packages the map names for them.
func TestArchitectureMap(t *testing.T) {
	m := readMap(t)
	outside := map[string][]string{
		"github.com/urfave/cli/v2":     {"internal/cli", "internal/completion", "internal/mangen", "internal/refwork"},
		"gonum.org/v1/plot":            {"internal/report/figure"},
		"github.com/chromedp/chromedp": {"internal/browser"},
		"modernc.org/sqlite":           {"internal/history"},
		"github.com/jackc/pgx":         {"internal/history"},
	}
	found := packageImports(t)
	for pkg := range m {
		if _, ok := found[pkg]; !ok {
			t.Errorf("docs/architecture.md (line %d) maps %s, which has no Go files", m[pkg].line, pkg)
		}
	}
	for pkg, imports := range found {
		entry := m[pkg]
		library := strings.HasPrefix(pkg, "internal/") || strings.HasPrefix(pkg, "pkg/") || pkg == "worker" || pkg == "recorder"
		if entry == nil && library {
			t.Errorf("package %s is not in docs/architecture.md: give it a ### heading, a paragraph and a May import line", pkg)
		}
		for _, im := range imports {
			for prefix, who := range outside {
				if strings.HasPrefix(im, prefix) && !slices.Contains(who, pkg) {
					t.Errorf("%s imports %s, which only %s may", pkg, im, strings.Join(who, " and "))
				}
			}
			own, ok := strings.CutPrefix(im, module)
			if !ok || entry == nil {
				continue
			}
			if !slices.Contains(entry.allowed, own) {
				t.Errorf("%s imports %s, which docs/architecture.md (line %d) does not allow", pkg, own, entry.line)
			}
		}
	}
}

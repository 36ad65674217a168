// Command mangen renders the man pages in man/ from their Markdown sources
// in man/src/. A tool page's {{options}} line is replaced by the tool's
// flags as its command line declares them, so a page cannot drift from the
// flags; {{version}} becomes the stream schema version.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cpuguy83/go-md2man/v2/md2man"
	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/cli"
	"github.com/flybench/flybench/pkg/ndjson"
)

func main() {
	out := flag.String("out", "man", "directory of the rendered pages; sources are in its src/")
	check := flag.Bool("check", false, "compare with the rendered pages instead of writing them")
	flag.Parse()
	stale, err := Generate(*out, *check)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mangen:", err)
		os.Exit(1)
	}
	if len(stale) > 0 {
		fmt.Fprintf(os.Stderr, "mangen: out of date: %s (run make man)\n", strings.Join(stale, ", "))
		os.Exit(1)
	}
}

// Generate renders every man/src/NAME.SECTION.md into dir/NAME.SECTION.
// With check it writes nothing and returns the pages that differ.
func Generate(dir string, check bool) ([]string, error) {
	sources, err := filepath.Glob(filepath.Join(dir, "src", "*.md"))
	if err != nil || len(sources) == 0 {
		return nil, fmt.Errorf("no sources in %s/src (%v)", dir, err)
	}
	var stale []string
	for _, src := range sources {
		page := strings.TrimSuffix(filepath.Base(src), ".md")
		text, err := os.ReadFile(src)
		if err != nil {
			return nil, err
		}
		roff := md2man.Render([]byte(expand(string(text), page)))
		target := filepath.Join(dir, page)
		if check {
			if old, err := os.ReadFile(target); err != nil || string(old) != string(roff) {
				stale = append(stale, target)
			}
			continue
		}
		if err := os.WriteFile(target, roff, 0o644); err != nil {
			return nil, err
		}
	}
	return stale, nil
}

// expand fills the placeholders of one page.
func expand(text, page string) string {
	text = strings.ReplaceAll(text, "{{version}}", ndjson.Version)
	tool, _, _ := strings.Cut(page, ".")
	if strings.Contains(text, "{{options}}") {
		text = strings.ReplaceAll(text, "{{options}}", options(cli.App(tool)))
	}
	return text
}

// options renders a tool's flags as definition lists under a heading
// per group, in the order --help lists them.
func options(app *ucli.App) string {
	var b strings.Builder
	names, groups := cli.FlagGroups(app)
	for i, name := range names {
		fmt.Fprintf(&b, "## %s\n\n", name)
		for _, f := range groups[i] {
			if f == ucli.HelpFlag || f == ucli.VersionFlag {
				continue // not in the man pages before either
			}
			writeOption(&b, f)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// writeOption renders one flag as a definition list item.
func writeOption(b *strings.Builder, f ucli.Flag) {
	names := f.Names()
	var spelled []string
	for _, n := range names {
		dash := "--"
		if len(n) == 1 {
			dash = "-"
		}
		spelled = append(spelled, "**"+dash+n+"**")
	}
	term := strings.Join(spelled, ", ")
	usage, value := "", ""
	if df, ok := f.(ucli.DocGenerationFlag); ok {
		usage = df.GetUsage()
		if df.TakesValue() {
			term += " *value*"
			if v := df.GetDefaultText(); v != "" {
				value = v
			} else if v := df.GetValue(); v != "" && v != `""` {
				value = v
			}
		}
	}
	if value != "" {
		usage += " (default: " + value + ")"
	}
	fmt.Fprintf(b, "%s\n: %s\n\n", term, escape(usage))
}

// escape keeps Markdown from reading flag text as emphasis.
func escape(s string) string {
	return strings.NewReplacer("*", `\*`, "_", `\_`).Replace(s)
}

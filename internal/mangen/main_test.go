package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/cli"
)

// The committed pages must be what the sources and the tools' flags render to.
func TestManPagesUpToDate(t *testing.T) {
	stale, err := Generate(filepath.Join("..", "..", "man"), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Fatalf("stale man pages %v: run make man", stale)
	}
}

// Every tool has a page, and every flag of it is on that page.
func TestEveryToolAndFlagDocumented(t *testing.T) {
	for _, tool := range cli.Tools() {
		page, err := os.ReadFile(filepath.Join("..", "..", "man", tool+".1"))
		if err != nil {
			t.Fatalf("%s has no man page: %v", tool, err)
		}
		text := strings.ReplaceAll(string(page), `\-`, "-")
		for _, f := range cli.App(tool).VisibleFlags() {
			if !strings.Contains(text, "--"+f.Names()[0]+`\fP`) {
				t.Errorf("%s: flag --%s missing from its man page", tool, f.Names()[0])
			}
		}
		for _, section := range []string{"EXIT STATUS", "EXAMPLES", "SEE ALSO"} {
			if !strings.Contains(string(page), section) {
				t.Errorf("%s: man page has no %s section", tool, section)
			}
		}
	}
}

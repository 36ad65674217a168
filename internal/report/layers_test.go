package report

import (
	"go/build"
	"slices"
	"strings"
	"testing"
)

// layers are the packages of the report and those of it each may import:
// the model at the bottom, the words and the figures on it, the formats on
// top (the html page renders the console's cards and the series' tables;
// json and hyperfine write their long arrays through splice).
var layers = map[string][]string{
	"model":     nil,
	"splice":    nil,
	"words":     {"model"},
	"figure":    {"model", "words"},
	"console":   {"model", "words"},
	"csv":       {"model", "words"},
	"json":      {"model", "splice"},
	"markdown":  {"model", "words"},
	"hyperfine": {"model", "splice"},
	"gobench":   {"model"},
	"bmf":       {"model"},
	"series":    {"model"},
	"svg":       {"model", "figure"},
	"html":      {"model", "words", "figure", "console", "series"},
}

// TestLayers keeps the report's packages in their layers, and gonum/plot
// in the figures alone.
func TestLayers(t *testing.T) {
	const prefix = "github.com/flybench/flybench/internal/report/"
	for pkg, allowed := range layers {
		p, err := build.ImportDir(pkg, 0)
		check(t, err)
		for _, imp := range p.Imports {
			if name, ok := strings.CutPrefix(imp, prefix); ok && !slices.Contains(allowed, name) {
				t.Errorf("%s imports %s; it may import only %v", pkg, name, allowed)
			}
			if strings.HasPrefix(imp, "gonum.org/v1/plot") && pkg != "figure" {
				t.Errorf("%s imports %s: the figures are the only users of gonum/plot", pkg, imp)
			}
		}
	}
}

package report

import (
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/field"
)

// CheckOptions refuses, before any input is read, a format this package
// does not write, and a figure choice that does not fit the format: a
// plot or a run, whether given (plotGiven, runGiven) even empty, goes
// with svg alone, which needs a plot that exists. A bad value is a
// *field.Error.
func CheckOptions(opt Options, plotGiven, runGiven bool) error {
	format, plot, run := field.Name(FieldFormat), field.Name(FieldPlot), field.Name(FieldRun)
	if !slices.Contains(Formats(), opt.Format) {
		return field.Errorf(FieldFormat, opt.Format, "%s %q: use %s", format, opt.Format, strings.Join(Formats(), ", "))
	}
	names := strings.Join(PlotNames(), ", ")
	switch {
	case opt.Format != "svg" && plotGiven:
		return field.Errorf(FieldPlot, opt.Plot, "%s needs %s svg (%s html draws every plot on one page)", plot, format, format)
	case opt.Format != "svg" && runGiven:
		return field.Errorf(FieldRun, opt.Run, "%s chooses the run of %s svg %s; drop it or add them", run, format, plot)
	case opt.Format == "svg" && opt.Plot == "":
		return field.Errorf(FieldPlot, opt.Plot, "%s svg writes one plot: name it with %s (%s)", format, plot, names)
	case opt.Format == "svg" && !slices.Contains(PlotNames(), opt.Plot):
		return field.Errorf(FieldPlot, opt.Plot, "%s %q: use %s", plot, opt.Plot, names)
	}
	return nil
}

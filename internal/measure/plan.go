package measure

import (
	"errors"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// plan is a request checked and settled: what the mode leaves open
// (rotation, layout) decided, the sides and their names known, the
// reference workload, hooks and the looks' analysis resolved. The embedded
// Request's Config is the policy the engine runs.
type plan struct {
	Request
	most      int // Most, less the reference workload's place
	sides     []side
	caseNames []string            // every side's name, the reference workload's last
	params    []map[string]string // each scanned case's values; nil without a scan
	ref       *reference
	hooks     caseHooks
	series    *ndjson.AASeries // this run's place in an A/A series
	judged    analyze.Options  // what the looks of a stopping rule analyse with
}

// Validate checks the request as Run would before running anything: the
// first problem is a *field.Error naming the field at fault, or one the
// mode or host makes unusable. It may look for the reference workload's
// program and open the input file.
func (r Request) Validate() error {
	_, err := r.resolve()
	return err
}

// resolve checks the request step by step, in the order fb-pair has
// always reported a first problem, and settles it into a plan.
func (r Request) resolve() (*plan, error) {
	p := &plan{Request: r, most: r.Most}
	for _, step := range []func() error{
		p.checkMode, p.resolveReference, p.expandCommands, p.resolveSeries, p.checkTimer,
		p.resolveSides, p.checkInvocations, p.resolveRotation, p.resolveLayout, p.checkResume,
		p.checkPlatform, p.resolveUntil, p.resolveNames, p.addReference, p.validateConfig,
		p.checkCPUSides, p.checkDuet, p.checkWorkUnits, p.checkStdio, p.checkTimeout, p.resolveHooks,
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// validateConfig is the collection policy's own check, for the sides
// settled: done here once, before anything runs, and not again by the
// engine.
func (p *plan) validateConfig() error {
	return p.Config.Validate(len(p.sides))
}

// named returns err, when it is a field error, with its fields spelled
// as names says.
func named(err error, names field.Names) error {
	var fe *field.Error
	if errors.As(err, &fe) && error(fe) == err {
		return fe.Named(names)
	}
	return err
}

// measuredSides is the number of sides the user asked to measure: the
// reference workload, when there is one, is not among them.
func (p *plan) measuredSides() int {
	if p.ref != nil {
		return len(p.sides) - 1
	}
	return len(p.sides)
}

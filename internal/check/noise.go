package check

import (
	"errors"
	"fmt"
	"io"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Profile is a noise profile: the noise records fb-noise wrote, read from
// File.
type Profile struct {
	File    string
	Records []ndjson.Noise
}

// LoadProfile reads a noise profile: one or more noise records and
// nothing else. Any other record, or none at all, is a *ndjson.SyntaxError
// naming the file; a future schema is the reader's *ndjson.VersionError.
func LoadProfile(r *ndjson.Reader, names field.Names) (*Profile, error) {
	takes := names.Spell(FieldNoise) + " takes a profile written by fb-noise"
	p := &Profile{File: r.Name()}
	last := 0
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if l.Type != ndjson.TypeNoise {
			return nil, r.Errorf(l, "a %s record, not a noise record: %s", l.Type, takes)
		}
		var n ndjson.Noise
		if err := r.Decode(l, &n); err != nil {
			return nil, err
		}
		if err := n.Validate(); err != nil {
			return nil, r.Errorf(l, "bad noise record: %v: %s", err, takes)
		}
		p.Records, last = append(p.Records, n), l.No
	}
	if len(p.Records) == 0 {
		return nil, &ndjson.SyntaxError{File: r.Name(), Line: last + 1, Msg: "no noise record: " + takes}
	}
	return p, nil
}

// ClassOf is the machine class a run was collected on.
func ClassOf(h ndjson.Host) ndjson.MachineClass {
	return ndjson.MachineClass{OS: h.OS, Arch: h.Arch, CPUModel: h.CPUModel, CPUs: h.CPUs}
}

// describeClass names a machine class for a message:
// "linux/amd64, AMD EPYC 7B13, 2 CPUs".
func describeClass(c ndjson.MachineClass) string {
	model := c.CPUModel
	if model == "" {
		model = "unknown CPU model"
	}
	return fmt.Sprintf("%s/%s, %s, %d CPUs", c.OS, c.Arch, model, c.CPUs)
}

// noiseSet is the part of a profile that applies to one run: the records
// calibrated on its machine class or, when none was, every record, with
// Mismatch saying why the judgement is only advisory.
type noiseSet struct {
	records  []ndjson.Noise
	Mismatch string
}

// forRun picks the records of p that apply to a run on host. A nil
// profile gives an empty set: no noise anywhere.
func (p *Profile) forRun(host ndjson.Host) noiseSet {
	if p == nil {
		return noiseSet{}
	}
	class := ClassOf(host)
	var same []ndjson.Noise
	for _, n := range p.Records {
		if n.Class == class {
			same = append(same, n)
		}
	}
	if len(same) > 0 {
		return noiseSet{records: same}
	}
	return noiseSet{records: p.Records, Mismatch: fmt.Sprintf(
		"noise profile calibrated on %s, this run on %s: recalibrate with fb-noise on this machine class",
		describeClass(p.Records[0].Class), describeClass(class))}
}

// noiseKey says which calibrated metric a checked metric's noise is.
type noiseKey struct {
	Kind, Metric, Case, Reference string
}

// lookup is the noise of key in percent (relative, or percentage points
// for a change), and whether the set has it. The first matching metric
// in profile order wins; a level metric matches on its case alone.
func (s noiseSet) lookup(k noiseKey) (float64, bool) {
	for _, n := range s.records {
		for _, m := range n.Metrics {
			if m.Kind == k.Kind && m.Metric == k.Metric && m.Case == k.Case &&
				(k.Kind != ndjson.NoiseChange || m.Reference == k.Reference) {
				return m.NoisePct, true
			}
		}
	}
	return 0, false
}

// has reports whether the set holds any record: a profile applies.
func (s noiseSet) has() bool { return len(s.records) > 0 }

// keyFor is the noise key of metric in comparison c: a paired comparison
// (one invocation) uses the calibrated change of its contender against its
// reference; a baseline comparison (two invocations) the calibrated level
// of its case, since the profile's spread is exactly one invocation
// against another.
func keyFor(c *ndjson.Comparison, metric string) noiseKey {
	if c.Design == ndjson.DesignIndependent {
		return noiseKey{Kind: ndjson.NoiseLevel, Metric: metric, Case: c.ContenderName}
	}
	return noiseKey{Kind: ndjson.NoiseChange, Metric: metric, Case: c.ContenderName, Reference: c.ReferenceName}
}

// unconverged is a note when a record of the set stopped before its
// estimates settled (fb-noise hit its run cap): its noise may be off.
func (s noiseSet) unconverged() string {
	for _, n := range s.records {
		if !n.Converged {
			return fmt.Sprintf("the noise profile did not converge in %d invocations: its noise estimates may be off; calibrate longer with fb-noise", n.Invocations)
		}
	}
	return ""
}

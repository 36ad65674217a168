package analyze

import (
	"slices"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// fingerprintFields are the fields of a run that a baseline comparison
// requires to be equal, in the order they are reported; tags add
// "tag.KEY" for every key either run has.
var fingerprintFields = []string{
	"host.os", "host.kernel", "host.arch", "host.cpu_model", "host.cpus", "host.governor", "host.go_version",
	"tool_version", "clock.backend", "mode", "timer",
}

// Fingerprint is a run's fingerprint as field name → value.
func Fingerprint(r ndjson.Run) map[string]string {
	h := r.Host
	fp := map[string]string{
		"host.os": h.OS, "host.kernel": h.Kernel, "host.arch": h.Arch, "host.cpu_model": h.CPUModel,
		"host.cpus": strconv.Itoa(h.CPUs), "host.governor": h.Governor, "host.go_version": h.GoVersion,
		"tool_version": r.ToolVersion, "clock.backend": r.Clock.Backend, "mode": string(r.Mode), "timer": string(r.Timer.KindOf()),
	}
	for k, v := range r.Tags {
		fp["tag."+k] = v
	}
	return fp
}

// fingerprintDiff lists the fields whose values differ between the
// baseline run and the current one: those named in allow (a field, or
// "tag.*" for every tag) are allowed, the rest refused. A tag that only
// one run has differs from the empty value.
func fingerprintDiff(base, cur ndjson.Run, allow []string) (allowed, refused []ndjson.Mismatch) {
	b, c := Fingerprint(base), Fingerprint(cur)
	for _, f := range fieldOrder(b, c) {
		if b[f] == c[f] {
			continue
		}
		m := ndjson.Mismatch{Field: f, Baseline: b[f], Current: c[f]}
		if allows(allow, f) {
			allowed = append(allowed, m)
		} else {
			refused = append(refused, m)
		}
	}
	return allowed, refused
}

// fieldOrder is the fixed fields, then every tag of either run, sorted.
func fieldOrder(b, c map[string]string) []string {
	var tags []string
	for _, fp := range []map[string]string{b, c} {
		for k := range fp {
			if strings.HasPrefix(k, "tag.") && !slices.Contains(tags, k) {
				tags = append(tags, k)
			}
		}
	}
	slices.Sort(tags)
	return append(slices.Clone(fingerprintFields), tags...)
}

func allows(allow []string, field string) bool {
	return slices.Contains(allow, field) || strings.HasPrefix(field, "tag.") && slices.Contains(allow, "tag.*")
}

// CheckAllowed refuses a name allowed to mismatch that is not a
// fingerprint field, so a typo does not silently allow nothing.
func CheckAllowed(allow []string) error {
	for _, f := range allow {
		switch {
		case slices.Contains(fingerprintFields, f), f == "tag.*":
		case strings.HasPrefix(f, "tag.") && len(f) > len("tag."):
		default:
			return field.Errorf(FieldAllowMismatch, f, "%s %q is not a fingerprint field: use %s, tag.KEY or tag.*", field.Name(FieldAllowMismatch), f, strings.Join(fingerprintFields, ", "))
		}
	}
	return nil
}

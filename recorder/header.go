package recorder

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"time"
)

// The recording record's shape, field for field the stream's (man
// fb-stream(5), RECORD recording).
type (
	recordingRecord struct {
		Type            string            `json:"type"`
		V               string            `json:"v"`
		RunID           string            `json:"run_id"`
		Tool            string            `json:"tool"`
		ToolVersion     string            `json:"tool_version"`
		Started         string            `json:"started"`
		Source          string            `json:"source"`
		SampleSemantics string            `json:"sample_semantics"`
		Benchmarks      []benchmarkInfo   `json:"benchmarks"`
		Retention       retentionInfo     `json:"retention"`
		Axes            []axisInfo        `json:"axes"`
		Host            hostInfo          `json:"host"`
		Clock           clockInfo         `json:"clock"`
		Tags            map[string]string `json:"tags,omitempty"`
	}
	benchmarkInfo struct {
		Index int    `json:"index"`
		Name  string `json:"name"`
	}
	retentionInfo struct {
		Policy   string `json:"policy"`
		Capacity int    `json:"capacity"`
		Seed     uint64 `json:"seed,omitempty"`
	}
	axisInfo struct {
		Name          string `json:"name"`
		Unit          string `json:"unit"`
		Family        string `json:"family"`
		Scope         string `json:"scope"`
		Attribution   string `json:"attribution"`
		Direction     string `json:"direction"`
		Normalization string `json:"normalization"`
		Status        string `json:"status"`
		Reason        string `json:"reason,omitempty"`
	}
	hostInfo struct {
		OS        string `json:"os"`
		Kernel    string `json:"kernel"`
		Arch      string `json:"arch"`
		CPUModel  string `json:"cpu_model"`
		CPUs      int    `json:"cpus"`
		Governor  string `json:"governor"`
		GoVersion string `json:"go_version"`
		Hostname  string `json:"hostname"`
	}
	clockInfo struct {
		Backend        string  `json:"backend"`
		NominalNS      float64 `json:"nominal_ns"`
		ObservedStepNS float64 `json:"observed_step_ns"`
		ReadMedianNS   float64 `json:"read_median_ns"`
		ReadMinNS      float64 `json:"read_min_ns"`
		SubtractNS     float64 `json:"subtract_ns"`
	}
)

// header is the recording record's line.
func (r *Recorder) header() ([]byte, error) {
	rec := recordingRecord{
		Type: "recording", V: schemaVersion, RunID: r.runID,
		Tool: "recorder", ToolVersion: toolVersion(),
		Started: time.Now().UTC().Format(time.RFC3339Nano),
		Source:  "recorder", SampleSemantics: "individual_span",
		Retention: retentionInfo{r.opts.Retention.String(), r.opts.Capacity, r.seed},
		Axes:      r.axisInfos(), Host: host(), Clock: clock(), Tags: r.opts.Tags,
	}
	for _, b := range r.benchmarks {
		rec.Benchmarks = append(rec.Benchmarks, benchmarkInfo{b.index, b.name})
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return nil, fmt.Errorf("recorder: format the recording record: %w", err)
	}
	return append(line, '\n'), nil
}

// axisInfos lists wall time and every requested axis, with the status
// this platform gives it.
func (r *Recorder) axisInfos() []axisInfo {
	out := []axisInfo{info(wallDesc, statusCollected, "")}
	for _, d := range requested(r.opts.Axes) {
		switch {
		case r.sel&d.sel != 0:
			out = append(out, info(d, statusCollected, ""))
		case d.sel&PerfAxes != 0:
			out = append(out, info(d, r.perfStatus, r.perfReason))
		case d.sel == ThreadCPU:
			out = append(out, info(d, statusUnsupported, threadReason))
		default:
			out = append(out, info(d, statusUnsupported, rusageReason))
		}
	}
	return out
}

func info(d axisDesc, status, reason string) axisInfo {
	return axisInfo{d.name, d.unit, d.family, d.scope, d.attribution, d.direction, d.normalization, status, reason}
}

// toolVersion is the flybench module's version in this binary's build
// information, or "devel".
func toolVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	const module = "github.com/flybench/flybench"
	if bi.Main.Path == module && bi.Main.Version != "" {
		return bi.Main.Version
	}
	for _, m := range bi.Deps {
		if m.Path == module {
			return m.Version
		}
	}
	return "devel"
}

// host fingerprints the machine as far as the standard library sees it.
func host() hostInfo {
	name, err := os.Hostname()
	if err != nil {
		name = "unavailable"
	}
	kernel, model, governor := platformHost()
	return hostInfo{OS: runtime.GOOS, Kernel: kernel, Arch: runtime.GOARCH, CPUModel: model,
		CPUs: runtime.NumCPU(), Governor: governor, GoVersion: runtime.Version(), Hostname: name}
}

// newUUID is a random (version 4) UUID from crypto/rand.
func newUUID() (string, error) {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		return "", fmt.Errorf("recorder: draw a run id: %w", err)
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16]), nil
}

// randomSeed is a nonzero seed from crypto/rand.
func randomSeed() (uint64, error) {
	var b [8]byte
	for {
		if _, err := rand.Read(b[:]); err != nil {
			return 0, fmt.Errorf("recorder: draw a seed: %w", err)
		}
		if s := binary.LittleEndian.Uint64(b[:]); s != 0 {
			return s, nil
		}
	}
}

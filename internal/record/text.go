package record

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/google/uuid"

	"github.com/flybench/flybench/pkg/probes"
)

// DefaultEndpoint chooses the default socket, in a new private
// directory, when neither a socket nor a FIFO is given; cleanup removes
// that directory.
func (opt *Options) DefaultEndpoint() (cleanup func(), err error) {
	if opt.Socket != "" || opt.FIFO != "" {
		return func() {}, nil
	}
	dir, err := os.MkdirTemp("", "fb-record-")
	if err != nil {
		return nil, fmt.Errorf("make the socket's directory: %w", err)
	}
	opt.Socket = filepath.Join(dir, "span.sock")
	return func() { os.RemoveAll(dir) }, nil
}

// Endpoint is where the session listens, for people.
func (opt Options) Endpoint() string {
	if opt.FIFO != "" {
		return "FIFO " + opt.FIFO
	}
	return opt.Socket
}

// NewMeta is a new recording's identity, host and clock, written by tool
// at version.
func NewMeta(tool, version string) Meta {
	clk := probes.Monotonic{}
	res, err := clk.Resolution()
	if err != nil {
		res = 0
	}
	return Meta{
		RunID: uuid.NewString(), Tool: tool, ToolVersion: version,
		Started: time.Now().UTC().Format(time.RFC3339Nano), Host: probes.Fingerprint(os.DirFS("/")),
		Clock: probes.Characterize(clk, clk.Backend(), res, 10000),
	}
}

// Summary is the last line a session prints: what was recorded.
func (res Result) Summary() string {
	var observed, retained, omitted, unfinished int64
	benches := res.Rec.Benches()
	for _, b := range benches {
		t := b.Tally()
		observed, retained, omitted, unfinished = observed+t.Observed, retained+t.Retained, omitted+t.Omitted, unfinished+t.Unfinished
	}
	line := fmt.Sprintf("%s: %d spans of %d benchmarks in %.2f s; %d kept (%s), %d omitted, %d unfinished, %d protocol errors",
		res.Reason, observed, len(benches), time.Duration(res.Rec.Now()).Seconds(), retained, res.Rec.Policy().Name,
		omitted, unfinished, res.Rec.ProtocolErrors())
	r := res.Rec
	if n := r.RefusedConnections() + r.ShedConnections() + r.DiscardedSpans() + r.DroppedAxes(); n > 0 {
		line += fmt.Sprintf("; lost to the limits: %d connections refused, %d shed, %d spans discarded, %d axis values dropped",
			r.RefusedConnections(), r.ShedConnections(), r.DiscardedSpans(), r.DroppedAxes())
	}
	return line
}

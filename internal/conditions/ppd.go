package conditions

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"
)

// systemBusSocket is the D-Bus system bus socket, relative to "/". The client
// dials this path only (not $DBUS_SYSTEM_BUS_ADDRESS), so the presence check
// and the connection agree.
const systemBusSocket = "run/dbus/system_bus_socket"

// DefaultPPDTimeout bounds one power-profiles-daemon read. A daemon that is
// slower than this is treated as absent rather than allowed to stretch a
// window boundary.
const DefaultPPDTimeout = 200 * time.Millisecond

// PPDClient reads power-profiles-daemon's ActiveProfile and
// PerformanceDegraded properties. It should give up when ctx is done; the
// detector stops waiting for it at the deadline either way.
type PPDClient interface {
	ReadPPD(ctx context.Context) (active, degraded string, err error)
}

// PowerProfiles reads power-profiles-daemon over the D-Bus system bus.
type PowerProfiles struct {
	// Root is the file system rooted at "/", checked for the bus socket.
	Root fs.FS
	// Client is nil when flybench was built without a D-Bus client.
	Client PPDClient
	// Timeout bounds each read; zero means DefaultPPDTimeout.
	Timeout time.Duration

	// dead latches the reason after a timeout: a stalled bus costs one
	// timeout per run, not one per window.
	dead string
}

// Profile reads and classifies the daemon's active profile and degradation.
func (p *PowerProfiles) Profile() ProfileReading {
	if reason := p.unreachable(); reason != "" {
		return unavailableProfile("power-profiles-daemon: " + reason)
	}
	active, degraded, err := p.read()
	if err != nil {
		return unavailableProfile("power-profiles-daemon: " + err.Error())
	}
	return ProfileReading{
		Available: true, Detector: DetectorPPD,
		Profile: ppdClass(active), Raw: active, Degradation: ppdDegradation(degraded),
	}
}

// unreachable says why the daemon cannot be asked at all, or "".
func (p *PowerProfiles) unreachable() string {
	if p.dead != "" {
		return p.dead
	}
	fi, err := fs.Stat(p.Root, systemBusSocket)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("no system bus: %q is absent", "/"+systemBusSocket)
	case err != nil:
		return fmt.Sprintf("no system bus: %v", err)
	case fi.Mode().Type() != fs.ModeSocket:
		return fmt.Sprintf("no system bus: %q is not a socket", "/"+systemBusSocket)
	case p.Client == nil:
		return "no D-Bus client in this build"
	}
	return ""
}

type ppdAnswer struct {
	active, degraded string
	err              error
}

// read asks the client, waiting no longer than the timeout even when the
// client ignores its context. A timeout latches the detector as dead.
func (p *PowerProfiles) read() (string, string, error) {
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = DefaultPPDTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	done := make(chan ppdAnswer, 1)
	go func() {
		a, d, err := p.Client.ReadPPD(ctx)
		done <- ppdAnswer{a, d, err}
	}()
	select {
	case ans := <-done:
		if !errors.Is(ans.err, context.DeadlineExceeded) {
			return ans.active, ans.degraded, ans.err
		}
	case <-ctx.Done():
	}
	p.dead = fmt.Sprintf("no answer within %v", timeout)
	return "", "", errors.New(p.dead)
}

// ppdClass maps an ActiveProfile value to a profile class.
func ppdClass(active string) string {
	switch active {
	case "power-saver":
		return ProfileReduced
	case "balanced":
		return ProfileBalanced
	case "performance":
		return ProfilePerformance
	}
	return ProfileUnknown
}

// ppdDegradation maps PerformanceDegraded to a reason. Newer daemons may
// join several reasons with commas; the most specific one wins, heat first.
func ppdDegradation(degraded string) string {
	degraded = strings.TrimSpace(degraded)
	if degraded == "" {
		return DegradationNone
	}
	reasons := strings.Split(degraded, ",")
	for _, want := range []string{"high-operating-temperature", "lap-detected"} {
		for _, r := range reasons {
			if strings.TrimSpace(r) == want {
				return strings.ReplaceAll(want, "-", "_")
			}
		}
	}
	return DegradationOther
}

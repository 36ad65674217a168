package conditions

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/godbus/dbus/v5"
)

// ppdService is one name under which power-profiles-daemon publishes its
// properties: the freedesktop name since 0.20, the hadess name before (and
// still, for compatibility).
type ppdService struct {
	name  string
	path  dbus.ObjectPath
	iface string
}

var ppdServices = []ppdService{
	{"org.freedesktop.UPower.PowerProfiles", "/org/freedesktop/UPower/PowerProfiles", "org.freedesktop.UPower.PowerProfiles"},
	{"net.hadess.PowerProfiles", "/net/hadess/PowerProfiles", "net.hadess.PowerProfiles"},
}

// errPPDNotRunning reports that no service name has an owner.
var errPPDNotRunning = errors.New("not running on the system bus")

// busPPD reads power-profiles-daemon over one private bus connection,
// opened on first use and kept for the run.
type busPPD struct {
	address string
	mu      sync.Mutex
	conn    *dbus.Conn
}

func systemPPDClient() PPDClient {
	return &busPPD{address: "unix:path=/" + systemBusSocket}
}

// ReadPPD returns ActiveProfile and PerformanceDegraded. It never starts the
// daemon through bus activation: a benchmark must not change the host.
func (b *busPPD) ReadPPD(ctx context.Context) (string, string, error) {
	conn, err := b.connect()
	if err != nil {
		return "", "", err
	}
	for _, svc := range ppdServices {
		props, err := getAll(ctx, conn, svc)
		if isNoOwner(err) {
			continue
		}
		if err != nil {
			return "", "", fmt.Errorf("read %s: %w", svc.name, err)
		}
		return ppdProperties(props, svc)
	}
	return "", "", errPPDNotRunning
}

// connect returns the kept connection, dialing the bus once.
func (b *busPPD) connect() (*dbus.Conn, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.conn != nil && b.conn.Connected() {
		return b.conn, nil
	}
	conn, err := dbus.Connect(b.address)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", b.address, err)
	}
	b.conn = conn
	return conn, nil
}

// getAll fetches every property of svc in one round trip.
func getAll(ctx context.Context, conn *dbus.Conn, svc ppdService) (map[string]dbus.Variant, error) {
	var props map[string]dbus.Variant
	call := conn.Object(svc.name, svc.path).CallWithContext(ctx,
		"org.freedesktop.DBus.Properties.GetAll", dbus.FlagNoAutoStart, svc.iface)
	if call.Err != nil {
		return nil, call.Err
	}
	return props, call.Store(&props)
}

// ppdProperties extracts the two string properties a reading needs.
// PerformanceDegraded is optional: daemons before 0.9 lack it.
func ppdProperties(props map[string]dbus.Variant, svc ppdService) (string, string, error) {
	active, ok := props["ActiveProfile"].Value().(string)
	if !ok {
		return "", "", fmt.Errorf("%s has no string ActiveProfile", svc.name)
	}
	degraded, _ := props["PerformanceDegraded"].Value().(string)
	return active, degraded, nil
}

// isNoOwner reports whether err says the bus name has no owner. godbus
// delivers error replies as dbus.Error values and its own as *dbus.Error.
func isNoOwner(err error) bool {
	var name string
	var de dbus.Error
	var pe *dbus.Error
	switch {
	case errors.As(err, &de):
		name = de.Name
	case errors.As(err, &pe):
		name = pe.Name
	}
	return name == "org.freedesktop.DBus.Error.ServiceUnknown" ||
		name == "org.freedesktop.DBus.Error.NameHasNoOwner"
}

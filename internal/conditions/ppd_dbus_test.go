package conditions

import (
	"bufio"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/prop"
)

// privateBus starts a dbus-daemon of its own and returns its address.
func privateBus(t *testing.T) string {
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("no dbus-daemon")
	}
	addr := "unix:path=" + filepath.Join(t.TempDir(), "bus")
	cmd := exec.Command(daemon, "--session", "--nofork", "--print-address", "--address="+addr)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		t.Fatalf("dbus-daemon did not start: %v", err)
	}
	return addr
}

// serve publishes a fake power-profiles-daemon under svc.
func serve(t *testing.T, addr string, svc ppdService, active, degraded string) {
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	props := prop.Map{svc.iface: {
		"ActiveProfile":       {Value: active, Emit: prop.EmitTrue},
		"PerformanceDegraded": {Value: degraded, Emit: prop.EmitTrue},
	}}
	if _, err := prop.Export(conn, svc.path, props); err != nil {
		t.Fatal(err)
	}
	if reply, err := conn.RequestName(svc.name, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("request %s: %v %v", svc.name, reply, err)
	}
}

func TestBusPPD(t *testing.T) {
	for _, svc := range ppdServices {
		addr := privateBus(t)
		serve(t, addr, svc, "power-saver", "lap-detected")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		active, degraded, err := (&busPPD{address: addr}).ReadPPD(ctx)
		cancel()
		if err != nil || active != "power-saver" || degraded != "lap-detected" {
			t.Errorf("%s: got %q %q %v", svc.name, active, degraded, err)
		}
	}
}

func TestBusPPDNotRunning(t *testing.T) {
	addr := privateBus(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _, err := (&busPPD{address: addr}).ReadPPD(ctx)
	if err == nil || !strings.Contains(err.Error(), "not running") {
		t.Fatalf("got %v, want not running", err)
	}
}

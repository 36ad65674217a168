//go:build !ppd_dbus

package conditions

// systemPPDClient is nil without the ppd_dbus build tag: power-profiles-daemon
// is then reported unavailable ("no D-Bus client in this build") whenever a
// system bus exists, never guessed.
func systemPPDClient() PPDClient { return nil }

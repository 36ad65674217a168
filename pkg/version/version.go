// Package version is the flybench release every tool reports and stamps
// into the records it writes.
package version

// Version is overridden at link time by the Makefile (-X) with git describe.
var Version = "0.1.0-dev"

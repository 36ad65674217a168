//go:build linux || freebsd

package recorder

// maxrssUnit: Linux and FreeBSD report ru_maxrss in KiB.
const maxrssUnit = 1024

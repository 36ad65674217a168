//go:build !linux

package record

import (
	"fmt"
	"net"
)

// connName is "connection N": the peer's pid is read on Linux only.
func connName(id int, _ *net.UnixConn) string { return fmt.Sprintf("connection %d", id) }

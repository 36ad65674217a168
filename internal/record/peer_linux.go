package record

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// connName is "connection N (pid P)", the pid from SO_PEERCRED when the
// peer's credentials can be read.
func connName(id int, conn *net.UnixConn) string {
	raw, err := conn.SyscallConn()
	if err != nil {
		return fmt.Sprintf("connection %d", id)
	}
	var cred *unix.Ucred
	cerr := raw.Control(func(fd uintptr) { cred, err = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED) })
	if cerr != nil || err != nil || cred == nil {
		return fmt.Sprintf("connection %d", id)
	}
	return fmt.Sprintf("connection %d (pid %d)", id, cred.Pid)
}

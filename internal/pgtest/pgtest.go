// Package pgtest starts a throwaway PostgreSQL cluster for tests: initdb
// into a temporary directory, a server listening only on a Unix socket
// there, a fresh database per caller. Debian's postgresql package (make
// deps installs it) provides the binaries; without them Start says why,
// and the caller skips.
package pgtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"syscall"
)

// Cluster is a running throwaway server.
type Cluster struct {
	dir  string
	bin  string
	cred *syscall.Credential
	user string
	mu   sync.Mutex
	n    int
}

// Start initialises and starts a cluster in a new temporary directory.
// As root it runs the server as the postgres user (initdb refuses root).
func Start() (*Cluster, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "fb-pgtest-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: dir, bin: bin, user: "postgres"}
	if os.Geteuid() == 0 {
		if err := c.dropRoot(); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	} else if u, err := user.Current(); err == nil {
		c.user = u.Username
	}
	if err := c.run("initdb", "-D", c.data(), "-U", c.user, "-A", "trust", "--no-sync", "-E", "UTF8"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	opts := fmt.Sprintf("-k %s -c listen_addresses='' -c fsync=off -c max_connections=100", dir)
	if err := c.run("pg_ctl", "-D", c.data(), "-o", opts, "-l", filepath.Join(dir, "log"), "-w", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%w\n%s", err, log)
	}
	return c, nil
}

// binDir is the newest /usr/lib/postgresql/*/bin holding initdb.
func binDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (make deps installs Debian's postgresql package)")
}

func version(dir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return v
}

// dropRoot makes the server's files the postgres user's and runs its
// commands as that user.
func (c *Cluster) dropRoot() error {
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("running as root and no postgres user to run the server as: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(c.dir, uid, gid); err != nil {
		return err
	}
	c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	return nil
}

func (c *Cluster) data() string { return filepath.Join(c.dir, "data") }

func (c *Cluster) run(tool string, args ...string) error {
	cmd := exec.Command(filepath.Join(c.bin, tool), args...)
	cmd.Dir = c.dir
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w: %s", tool, err, out)
	}
	return nil
}

// NewDatabase creates an empty database and returns its postgres:// DSN.
func (c *Cluster) NewDatabase() (string, error) {
	c.mu.Lock()
	c.n++
	name := fmt.Sprintf("t%d", c.n)
	c.mu.Unlock()
	if err := c.run("createdb", "-h", c.dir, "-U", c.user, name); err != nil {
		return "", err
	}
	return fmt.Sprintf("postgres://%s@/%s?host=%s", c.user, name, c.dir), nil
}

// Stop stops the server and removes its files.
func (c *Cluster) Stop() error {
	err := c.run("pg_ctl", "-D", c.data(), "-m", "immediate", "-w", "stop")
	os.RemoveAll(c.dir)
	return err
}

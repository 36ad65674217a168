package probes

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"runtime"
	"strconv"
	"strings"

	"github.com/flybench/flybench/pkg/ndjson"
	"golang.org/x/sys/unix"
)

// Values recorded when a host fact cannot be read.
const (
	// Unknown marks a fact whose source exists but said nothing usable.
	Unknown = "unknown"
	// Unavailable marks a fact the platform does not expose at all, such as
	// the cpufreq governor in a VM without a cpufreq driver.
	Unavailable = "unavailable"
)

// Paths read by Fingerprint, relative to the root file system.
const (
	cpuinfoPath  = "proc/cpuinfo"
	onlinePath   = "sys/devices/system/cpu/online"
	governorPath = "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
)

// uname is the part of uname(2) a fingerprint needs.
type uname interface {
	Uname() (release, nodename string, err error)
}

type sysUname struct{}

func (sysUname) Uname() (string, string, error) {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return "", "", err
	}
	return unix.ByteSliceToString(u.Release[:]), unix.ByteSliceToString(u.Nodename[:]), nil
}

// Fingerprint describes the host. Files are read through root, which is the
// file system rooted at "/" (os.DirFS("/")) in production and a fixture in
// tests; the kernel release and hostname come from uname(2). A fact that
// cannot be read is recorded as Unknown or Unavailable, never left empty.
// Where there is no /proc/cpuinfo (darwin, FreeBSD) the CPU model comes
// from sysctl.
func Fingerprint(root fs.FS) ndjson.Host {
	h := fingerprint(root, sysUname{})
	if h.CPUModel == Unknown {
		h.CPUModel = orUnknown(sysctlCPUModel())
	}
	return h
}

func fingerprint(root fs.FS, u uname) ndjson.Host {
	release, node, err := u.Uname()
	if err != nil {
		release, node = Unknown, Unknown
	}
	cpuinfo, _ := fs.ReadFile(root, cpuinfoPath)
	return ndjson.Host{
		OS:        runtime.GOOS,
		Kernel:    orUnknown(release),
		Arch:      runtime.GOARCH,
		CPUModel:  cpuModel(cpuinfo),
		CPUs:      cpuCount(root, cpuinfo),
		Governor:  governor(root),
		GoVersion: runtime.Version(),
		Hostname:  orUnknown(node),
	}
}

func orUnknown(s string) string {
	if s = strings.TrimSpace(s); s == "" {
		return Unknown
	}
	return s
}

// cpuModelKeys are the /proc/cpuinfo fields that name the CPU, by preference:
// x86, then the fields other architectures use.
var cpuModelKeys = []string{"model name", "Hardware", "cpu model", "cpu", "uarch", "Processor"}

// cpuModel names the CPU from /proc/cpuinfo. ARM64 kernels print only
// implementer and part numbers; those are recorded as such.
func cpuModel(cpuinfo []byte) string {
	fields := cpuinfoFields(cpuinfo)
	for _, k := range cpuModelKeys {
		if v := fields[k]; v != "" {
			return v
		}
	}
	impl, part := fields["CPU implementer"], fields["CPU part"]
	if impl != "" && part != "" {
		return "implementer " + impl + " part " + part
	}
	return Unknown
}

// cpuinfoFields returns the first value of every "key : value" line, with
// runs of blanks inside values collapsed to one space.
func cpuinfoFields(cpuinfo []byte) map[string]string {
	fields := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(cpuinfo))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		if _, seen := fields[k]; !seen {
			fields[k] = strings.Join(strings.Fields(v), " ")
		}
	}
	return fields
}

// cpuCount is the number of logical CPUs online on the host, which is not
// runtime.NumCPU when this process is confined to fewer by affinity. It
// falls back to the processor entries of /proc/cpuinfo, then to NumCPU.
func cpuCount(root fs.FS, cpuinfo []byte) int {
	if b, err := fs.ReadFile(root, onlinePath); err == nil {
		if n, ok := countCPUList(strings.TrimSpace(string(b))); ok {
			return n
		}
	}
	n := 0
	for line := range strings.Lines(string(cpuinfo)) {
		if k, _, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "processor" {
			n++
		}
	}
	if n > 0 {
		return n
	}
	return runtime.NumCPU()
}

// countCPUList counts the CPUs of a kernel cpu list such as "0-3,8,10-11".
func countCPUList(list string) (int, bool) {
	if list == "" {
		return 0, false
	}
	n := 0
	for part := range strings.SplitSeq(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		if !isRange {
			hi = lo
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || b < a {
			return 0, false
		}
		n += b - a + 1
	}
	return n, true
}

// governor is cpu0's cpufreq scaling governor: Unavailable when the platform
// has no cpufreq driver (the file does not exist, as in most VMs), Unknown
// when it exists but cannot be read or is empty.
func governor(root fs.FS) string {
	b, err := fs.ReadFile(root, governorPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Unavailable
	case err != nil:
		return Unknown
	}
	return orUnknown(string(b))
}

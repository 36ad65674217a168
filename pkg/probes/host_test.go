package probes

import (
	"errors"
	"os"
	"runtime"
	"testing"
	"testing/fstest"

	"github.com/flybench/flybench/pkg/ndjson"
)

type fakeUname struct {
	release, node string
	err           error
}

func (f fakeUname) Uname() (string, string, error) { return f.release, f.node, f.err }

const x86cpuinfo = `processor	: 0
vendor_id	: AuthenticAMD
model name	: AMD EPYC   7B13 64-Core Processor
flags		: fpu vme

processor	: 1
vendor_id	: AuthenticAMD
model name	: AMD EPYC   7B13 64-Core Processor
`

const arm64cpuinfo = `processor	: 0
BogoMIPS	: 50.00
CPU implementer	: 0x41
CPU part	: 0xd0c

processor	: 1
CPU implementer	: 0x41
CPU part	: 0xd0c
`

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

func TestFingerprint(t *testing.T) {
	tests := []struct {
		name  string
		fs    fstest.MapFS
		uname fakeUname
		want  ndjson.Host // OS, Arch and GoVersion are filled in below
	}{
		{
			name: "x86 with cpufreq",
			fs: fstest.MapFS{
				"proc/cpuinfo":                  file(x86cpuinfo),
				"sys/devices/system/cpu/online": file("0-3,6\n"),
				"sys/devices/system/cpu/cpu0/cpufreq/scaling_governor": file("performance\n"),
			},
			uname: fakeUname{release: "6.1.0-18-amd64", node: "bench1"},
			want: ndjson.Host{Kernel: "6.1.0-18-amd64", CPUModel: "AMD EPYC 7B13 64-Core Processor",
				CPUs: 5, Governor: "performance", Hostname: "bench1"},
		},
		{
			name:  "vm without cpufreq or online list",
			fs:    fstest.MapFS{"proc/cpuinfo": file(x86cpuinfo)},
			uname: fakeUname{release: "6.18.44", node: "vm"},
			want: ndjson.Host{Kernel: "6.18.44", CPUModel: "AMD EPYC 7B13 64-Core Processor",
				CPUs: 2, Governor: Unavailable, Hostname: "vm"},
		},
		{
			name: "arm64 without model name, empty governor",
			fs: fstest.MapFS{
				"proc/cpuinfo": file(arm64cpuinfo),
				"sys/devices/system/cpu/cpu0/cpufreq/scaling_governor": file("\n"),
			},
			uname: fakeUname{release: "6.5.0", node: "pi"},
			want: ndjson.Host{Kernel: "6.5.0", CPUModel: "implementer 0x41 part 0xd0c",
				CPUs: 2, Governor: Unknown, Hostname: "pi"},
		},
		{
			name: "odd cpuinfo: Hardware line, no separator lines",
			fs: fstest.MapFS{
				"proc/cpuinfo":                  file("garbage without colon\nHardware\t: BCM2835\nprocessor : 0\n"),
				"sys/devices/system/cpu/online": file("not-a-list"),
			},
			uname: fakeUname{release: "5.10", node: "rpi"},
			want:  ndjson.Host{Kernel: "5.10", CPUModel: "BCM2835", CPUs: 1, Governor: Unavailable, Hostname: "rpi"},
		},
		{
			name:  "nothing readable",
			fs:    fstest.MapFS{},
			uname: fakeUname{err: errors.New("no uname")},
			want: ndjson.Host{Kernel: Unknown, CPUModel: Unknown, CPUs: runtime.NumCPU(),
				Governor: Unavailable, Hostname: Unknown},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.OS, tt.want.Arch, tt.want.GoVersion = runtime.GOOS, runtime.GOARCH, runtime.Version()
			if got := fingerprint(tt.fs, tt.uname); got != tt.want {
				t.Errorf("fingerprint =\n %+v\nwant\n %+v", got, tt.want)
			}
		})
	}
}

func TestCountCPUList(t *testing.T) {
	for list, want := range map[string]int{"0": 1, "0-1": 2, "0-3,8,10-11": 7, "": -1, "3-1": -1, "a": -1} {
		n, ok := countCPUList(list)
		if !ok {
			n = -1
		}
		if n != want {
			t.Errorf("countCPUList(%q) = %d, want %d", list, n, want)
		}
	}
}

// TestFingerprintReal checks the real host through the real file system.
func TestFingerprintReal(t *testing.T) {
	h := Fingerprint(os.DirFS("/"))
	t.Logf("%+v", h)
	if h.Kernel == Unknown || h.Hostname == Unknown || h.CPUs < 1 || h.CPUModel == "" || h.Governor == "" {
		t.Errorf("implausible host fingerprint %+v", h)
	}
	if _, err := os.Stat("/" + governorPath); errors.Is(err, os.ErrNotExist) && h.Governor != Unavailable {
		t.Errorf("governor = %q on a host without cpufreq, want %q", h.Governor, Unavailable)
	}
}

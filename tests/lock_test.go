package tests

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/claim"
	"github.com/flybench/flybench/internal/cli"
	"github.com/flybench/flybench/pkg/ndjson"
)

// lockRecord reads the lock record fb-lock wrote.
func lockRecord(t *testing.T, data []byte) ndjson.Lock {
	t.Helper()
	var rec ndjson.Lock
	line, _, _ := bytes.Cut(data, []byte("\n"))
	if err := json.Unmarshal(line, &rec); err != nil || rec.Type != ndjson.TypeLock {
		t.Fatalf("no lock record in %q: %v", data, err)
	}
	return rec
}

// claimed is one fb-lock process of the concurrency test.
type claimed struct {
	id          int
	cpus        []int // nil: machine-wide
	start, stop int64
	record      string
}

func (c *claimed) conflicts(o *claimed) bool {
	if c.cpus == nil || o.cpus == nil {
		return true
	}
	return slices.ContainsFunc(c.cpus, func(n int) bool { return slices.Contains(o.cpus, n) })
}

// Forty real fb-lock processes with random overlapping CPU sets and
// machine-wide claims, each logging when its program ran: no two
// conflicting claims ever ran at once, and all of them ran.
func TestLockConcurrentClaims(t *testing.T) {
	online, err := claim.OnlineCPUs(os.DirFS("/"))
	if err != nil || len(online) == 0 {
		online = []int{0}
	}
	online = online[:min(len(online), 4)]
	work := t.TempDir()
	dir, logPath := filepath.Join(work, "claims"), filepath.Join(work, "log")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	const n = 40
	procs := make([]*claimed, n)
	cmds := make([]*exec.Cmd, n)
	script := `echo "start $(date +%s%N) $0" >> "$1"; sleep 0.03; echo "stop $(date +%s%N) $0" >> "$1"`
	began := time.Now()
	for i := range procs {
		c := &claimed{id: i, record: filepath.Join(work, fmt.Sprintf("record.%d", i))}
		args := []string{"--path", dir, "--poll", "10ms", "--timeout", "120s", "--quiet", "--record", c.record}
		if rng.IntN(4) > 0 {
			for _, cpu := range online {
				if rng.IntN(2) == 0 || cpu == online[len(online)-1] && c.cpus == nil {
					c.cpus = append(c.cpus, cpu)
				}
			}
			args = append(args, "--cpus", claim.FormatCPUs(c.cpus))
		}
		args = append(args, "sh", "-c", script, strconv.Itoa(i), logPath)
		procs[i], cmds[i] = c, exec.Command(tool("fb-lock"), args...)
		var stderr bytes.Buffer
		cmds[i].Stderr = &stderr
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
		defer cmds[i].Process.Kill()
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("claim %d: %v: %s", i, err, cmd.Stderr)
		}
	}
	elapsed := time.Since(began)
	t.Logf("%d concurrent claims on CPUs %v finished in %v", n, online, elapsed)
	if elapsed > 90*time.Second {
		t.Errorf("%d claims took %v: something waited far longer than the work", n, elapsed)
	}
	readLockLog(t, logPath, procs)
	checkNoConflicts(t, procs)
}

// readLockLog fills in start and stop times and checks every claim was held.
func readLockLog(t *testing.T, path string, procs []*claimed) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var what string
		var ns int64
		var id int
		if _, err := fmt.Sscanf(sc.Text(), "%s %d %d", &what, &ns, &id); err != nil || id < 0 || id >= len(procs) {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		if what == "start" {
			procs[id].start = ns
		} else {
			procs[id].stop = ns
		}
	}
	for _, p := range procs {
		data, _ := os.ReadFile(p.record)
		if rec := lockRecord(t, data); rec.Outcome != ndjson.LockHeld && rec.Outcome != ndjson.LockNamespaceScoped {
			t.Errorf("claim %d %v: outcome %s: %s", p.id, p.cpus, rec.Outcome, rec.Reason)
		}
		if p.start == 0 || p.stop < p.start {
			t.Errorf("claim %d never ran to the end (start %d, stop %d)", p.id, p.start, p.stop)
		}
	}
}

func checkNoConflicts(t *testing.T, procs []*claimed) {
	t.Helper()
	concurrent := 0
	for i, a := range procs {
		for _, b := range procs[i+1:] {
			if a.start >= b.stop || b.start >= a.stop {
				continue
			}
			if a.conflicts(b) {
				t.Errorf("claims %d %v and %d %v ran at the same time", a.id, a.cpus, b.id, b.cpus)
			}
			concurrent++
		}
	}
	t.Logf("%d pairs of disjoint per-CPU claims ran concurrently", concurrent)
}

// startHolder runs fb-lock holding the machine-wide claim over a long sleep
// and waits until the claim is taken.
func startHolder(t *testing.T, dir string, extra ...string) *exec.Cmd {
	t.Helper()
	args := append([]string{"--path", dir, "--record", filepath.Join(t.TempDir(), "holder.ndjson")}, extra...)
	cmd := exec.Command(tool("fb-lock"), append(args, "sleep", "60")...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitFor(t, func() bool { return holds(dir, cmd.Process.Pid) }, "the holder to take the claim")
	return cmd
}

// holds reads /proc/locks through fb-lock --status --json.
func holds(dir string, pid int) bool {
	out, err := exec.Command(tool("fb-lock"), "--status", "--json", "--path", dir).Output()
	if err != nil {
		return false
	}
	var st claim.Status
	if json.Unmarshal(out, &st) != nil {
		return false
	}
	for _, f := range st.Files {
		for _, h := range f.Holders {
			if h.PID == pid {
				return true
			}
		}
	}
	return false
}

// A holder killed with SIGKILL releases the claim: a waiter gets it
// within a poll interval, and a new claim gets it at once.
func TestLockKilledHolderReleases(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "claims")
	holder := startHolder(t, dir)
	stamp := filepath.Join(t.TempDir(), "stamp")
	waiter := exec.Command(tool("fb-lock"), "--path", dir, "--poll", "10ms", "--timeout", "30s", "--record", "none",
		"sh", "-c", `date +%s%N > "$0"`, stamp)
	var stderr bytes.Buffer
	waiter.Stderr = &stderr
	if err := waiter.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	if _, err := os.Stat(stamp); err == nil {
		t.Fatal("the waiter ran while the claim was held")
	}
	killed := time.Now()
	holder.Process.Signal(syscall.SIGKILL)
	if err := waiter.Wait(); err != nil {
		t.Fatalf("waiter: %v: %s", err, stderr.String())
	}
	data, _ := os.ReadFile(stamp)
	ns, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		t.Fatalf("stamp %q: %v", data, err)
	}
	latency := time.Unix(0, ns).Sub(killed)
	t.Logf("a waiter polling every 10ms ran its program %v after the holder was killed", latency)
	if latency > 3*time.Second {
		t.Errorf("re-acquired %v after the kill", latency)
	}

	holder = startHolder(t, dir)
	holder.Process.Signal(syscall.SIGKILL)
	holder.Wait()
	began := time.Now()
	out, err := exec.Command(tool("fb-lock"), "--path", dir, "--timeout", "0", "--require-machine-scope", "true").Output()
	t.Logf("a new claim after the kill took %v", time.Since(began))
	if err != nil {
		t.Fatalf("claim after kill: %v", err)
	}
	if rec := lockRecord(t, out); rec.Outcome != ndjson.LockHeld {
		t.Fatalf("outcome %s after the holder was killed", rec.Outcome)
	}
}

// --require-machine-scope refuses a busy claim with exit status 11 and
// does not run PROGRAM; without it PROGRAM runs, recorded busy.
func TestLockRequireMachineScopeRefusesBusy(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "claims")
	holder := startHolder(t, dir, "--cpus", "0")
	marker := filepath.Join(t.TempDir(), "ran")
	cmd := exec.Command(tool("fb-lock"), "--path", dir, "--timeout", "300ms", "--poll", "50ms", "--require-machine-scope", "touch", marker)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var xe *exec.ExitError
	if !errors.As(err, &xe) || xe.ExitCode() != cli.ExitLockRefused {
		t.Fatalf("exit %v, want %d; stderr %s", err, cli.ExitLockRefused, stderr.String())
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("PROGRAM ran although the claim was refused")
	}
	rec := lockRecord(t, stdout.Bytes())
	if rec.Outcome != ndjson.LockBusy || !rec.Required || rec.TimeoutNS != 300e6 || rec.WaitedNS < 300e6 {
		t.Errorf("record %+v", rec)
	}
	pid := strconv.Itoa(holder.Process.Pid)
	if len(rec.Holders) == 0 || !strings.Contains(rec.Holders[0], "pid "+pid+" sleep (cpus 0") {
		t.Errorf("holders %q do not name the holder pid %s", rec.Holders, pid)
	}
	if !strings.Contains(stderr.String(), "fb-lock: error: --require-machine-scope: no machine-wide claim (busy)") {
		t.Errorf("stderr %q", stderr.String())
	}

	stdout.Reset()
	stderr.Reset()
	cmd = exec.Command(tool("fb-lock"), "--path", dir, "--timeout", "100ms", "--poll", "50ms", "touch", marker)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("unrequired busy claim: %v: %s", err, stderr.String())
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("PROGRAM did not run unserialized")
	}
	if rec := lockRecord(t, stdout.Bytes()); rec.Outcome != ndjson.LockBusy || rec.Required {
		t.Errorf("record %+v", rec)
	}
	if !strings.Contains(stderr.String(), "fb-lock: warning: running PROGRAM without the claim (busy)") {
		t.Errorf("stderr %q", stderr.String())
	}
}

// --status names a live holder and its pid while the claim is held, and
// returns at once instead of waiting behind it.
func TestLockStatusListsLiveHolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "claims")
	holder := startHolder(t, dir, "--cpus", "0")
	pid := strconv.Itoa(holder.Process.Pid)
	began := time.Now()
	out, err := exec.Command(tool("fb-lock"), "--status", "--path", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("--status: %v: %s", err, out)
	}
	if took := time.Since(began); took > 2*time.Second {
		t.Errorf("--status took %v", took)
	}
	text := string(out)
	for _, want := range []string{
		dir + ": 2 claim files",
		"machine  shared by pid " + pid,
		"cpu.0    exclusive by pid " + pid + ": pid " + pid + " sleep (cpus 0, since ",
		"): sleep 60",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("--status output lacks %q:\n%s", want, text)
		}
	}
}

// Flags after PROGRAM are PROGRAM's, and PROGRAM inherits the claim's
// descriptors, named in $HOST_CPU_CLAIM_FDS, holding the flocks.
func TestLockChainLoadsProgram(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "claims")
	out, err := exec.Command(tool("fb-lock"), "--path", dir, "--record", "stderr", "--cpus", "0",
		"sh", "-c", `for fd in $(echo "$HOST_CPU_CLAIM_FDS" | tr , ' '); do readlink /proc/$$/fd/$fd; done; echo "$@"`, "sh", "--path", "x").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := dir + "/machine\n" + dir + "/cpu.0\n--path x\n"
	if string(out) != want {
		t.Errorf("PROGRAM printed %q, want %q", out, want)
	}
}

// A systemd PrivateTmp-style bind mount, made for real in a private mount
// namespace, is reported namespace_scoped, and refused with exit status 11
// under --require-machine-scope. Needs root and unshare(1).
func TestLockPrivateMountIsNamespaceScoped(t *testing.T) {
	unshare, err := exec.LookPath("unshare")
	if err != nil || os.Geteuid() != 0 {
		t.Skip("needs root and unshare(1)")
	}
	work := t.TempDir()
	src := filepath.Join(work, "systemd-private-0123abcd-test.service-Q1w2e3", "tmp")
	target := filepath.Join(work, "tmp")
	for _, d := range []string{src, target} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script := `mount --bind "$1" "$2" || exit 99
"$3" --path "$2/claims" true
"$3" --require-machine-scope --record none --path "$2/claims" true
echo "exit $?"`
	out, err := exec.Command(unshare, "-m", "--propagation", "private", "sh", "-c", script, "sh", src, target, tool("fb-lock")).CombinedOutput()
	var xe *exec.ExitError
	if errors.As(err, &xe) && xe.ExitCode() == 99 || err != nil && strings.Contains(string(out), "unshare failed") {
		t.Skipf("cannot make a private mount here: %s", out)
	}
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	text := string(out)
	if !strings.Contains(text, `"outcome":"namespace_scoped"`) || !strings.Contains(text, "systemd PrivateTmp=") {
		t.Errorf("no namespace_scoped record naming PrivateTmp:\n%s", text)
	}
	if !strings.Contains(text, "exit 11\n") {
		t.Errorf("--require-machine-scope did not exit 11:\n%s", text)
	}
	if _, err := os.Stat(filepath.Join(src, "claims", "machine")); err != nil {
		t.Errorf("the claim file is not in the bind mount's source: %v", err)
	}
}

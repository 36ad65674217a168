package runner

import "syscall"

// Usage is what the children of one batch used, as wait4 reports it for
// each child alone (exact attribution: nothing of the harness is in it).
// Times and counts are sums over the batch's runs; MaxRSSKiB is the largest
// peak resident set of any run.
type Usage struct {
	Runs                int64
	UserNS              int64
	SystemNS            int64
	MaxRSSKiB           int64
	MinorFaults         int64
	MajorFaults         int64
	VoluntarySwitches   int64
	InvoluntarySwitches int64
	BlockIn             int64
	BlockOut            int64
}

func (u *Usage) add(r *syscall.Rusage) {
	u.Runs++
	u.UserNS += r.Utime.Nano()
	u.SystemNS += r.Stime.Nano()
	u.MaxRSSKiB = max(u.MaxRSSKiB, r.Maxrss)
	u.MinorFaults += r.Minflt
	u.MajorFaults += r.Majflt
	u.VoluntarySwitches += r.Nvcsw
	u.InvoluntarySwitches += r.Nivcsw
	u.BlockIn += r.Inblock
	u.BlockOut += r.Oublock
}

package measure

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/pagecache"
	"github.com/flybench/flybench/internal/platform"
	"github.com/flybench/flybench/pkg/ndjson"
)

// dropsFiles reports whether the run drops its programs' files from the
// page cache: unless asked to keep them, on Linux.
func (p *plan) dropsFiles() bool {
	return !p.KeepPageCache && platform.Linux(platform.GOOS)
}

// programFiles is the distinct program files of the cases in case order
// (a program started through a symbolic link by the file it resolves
// to), and the names of the cases whose program is not known: run through
// the shell, or not found.
func (m *measurement) programFiles() (files, unknown []string) {
	for _, c := range m.cases {
		switch f := programFile(c.Program); {
		case f == "":
			unknown = append(unknown, c.Name)
		case !slices.Contains(files, f):
			files = append(files, f)
		}
	}
	return files, unknown
}

// sidesStartDifferentFiles reports whether the measured sides (not the
// reference workload) start two or more distinct known program files.
func (m *measurement) sidesStartDifferentFiles() bool {
	var files []string
	for _, c := range m.cases[:m.measuredSides()] {
		if f := programFile(c.Program); f != "" && !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	return len(files) > 1
}

// programFile is the file a program resolves to, "" when it is not known:
// its link's target, or its path with every link on the way resolved (a
// path through a linked directory, such as /bin/gzip where /bin links to
// usr/bin, is the file /usr/bin/gzip starts).
func programFile(p *ndjson.Program) string {
	switch {
	case p == nil:
		return ""
	case p.Link != "":
		return p.Link
	}
	if real, err := filepath.EvalSymlinks(p.Path); err == nil {
		return real
	}
	return p.Path
}

// dropPrograms writes back and drops every program file from the page
// cache, and sums what that came to.
func dropPrograms(files []string) *ndjson.Dropped {
	d := &ndjson.Dropped{}
	for _, f := range files {
		r := pagecache.Drop(f)
		d.Pages += r.Pages
		d.Resident += max(r.Before, 0)
		d.Left += max(r.After, 0)
		switch {
		case r.Err != nil:
			d.Failed = append(d.Failed, r.Err.Error())
		case r.After > 0:
			d.Failed = append(d.Failed, fmt.Sprintf("%s: %d of its %d pages stayed cached (a running process maps them, or its filesystem keeps them)", f, r.After, r.Pages))
		}
	}
	return d
}

// dropFirst drops the programs' files before warm-up, when the run drops
// them, and records the policy in the run record. It returns the files,
// none when the run keeps them or knows none, and the release of block
// 0's ballast, to be called once warm-up has read the files back (and
// at the latest when the run ends; it does nothing the second time). A
// page a running process maps stays cached, so in worker mode the
// workers (started to learn what they offer) are restarted around the
// drop.
func (m *measurement) dropFirst() ([]string, func(), error) {
	if !m.dropsFiles() {
		m.record.Config.PageCache = &ndjson.PageCache{Policy: ndjson.PageCacheKeep}
		return nil, func() {}, nil
	}
	files, unknown := m.programFiles()
	pc := &ndjson.PageCache{Policy: ndjson.PageCacheDrop, Files: files, Unknown: unknown}
	m.record.Config.PageCache = pc
	if len(files) == 0 {
		return nil, func() {}, nil
	}
	var release func()
	if m.Mode != ModeWorker {
		pc.First, release = dropWithBallast(files, ballastPages(m.Seed, 0))
	} else {
		order := make([]int, len(m.cases))
		for i := range order {
			order[i] = i
		}
		st, err := m.restartWorkers(order, files, 0)
		if err != nil {
			return nil, func() {}, err
		}
		pc.First, release = st.Dropped, st.Release
	}
	m.warnDropped(pc.First, files)
	return files, sync.OnceFunc(release), nil
}

// warnDropped says on stderr which files could not be dropped, where the
// cases start different files: one file every case starts is held the
// same way for all of them.
func (m *measurement) warnDropped(d *ndjson.Dropped, files []string) {
	if len(files) < 2 {
		return
	}
	for _, f := range d.Failed {
		fmt.Fprintf(m.env.Stderr, "%s: warning: %s: the sides may not read their code back the same way\n", m.Tool, f)
	}
}

// fileRotation is the block start of a run whose every batch starts its
// own process: the programs' files are dropped from the page cache, so
// the block's batches read them back afresh.
func (m *measurement) fileRotation(files []string) func(collect.Block) (collect.Started, error) {
	return func(b collect.Block) (collect.Started, error) {
		d, release := dropWithBallast(files, ballastPages(m.Seed, b.Block))
		return collect.Started{Dropped: d, Release: release}, nil
	}
}

// dropWithBallast drops the files and takes a ballast of pages on one OS
// thread: the pages a drop frees wait in the list of the CPU that freed
// them, and a ballast taken on another could miss them.
func dropWithBallast(files []string, pages int) (*ndjson.Dropped, func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	d := dropPrograms(files)
	d.Ballast = pages
	return d, pagecache.Ballast(pages)
}

// ballastPages is the size of block's page-placement ballast, 1 to
// pagecache.MaxBallastPages pages, drawn from the run's seed and the
// block, so that a run's placements can be drawn again.
func ballastPages(seed uint64, block int) int {
	r := rand.New(rand.NewPCG(seed, 0x62616c6c61737400|uint64(block)))
	return 1 + r.IntN(pagecache.MaxBallastPages)
}

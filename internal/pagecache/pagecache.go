// Package pagecache drops files from the kernel's page cache and counts how
// much of each it holds.
//
// A file stays in the page cache the way it got there for as long as it
// stays at all: a program written by a linker or copied with cp is held in
// the pages or large folios its writer made, one read back by exec in the
// pages the reader's faults made, each wherever the allocator found room.
// Two byte-identical programs can therefore run differently for as long as
// both stay cached (a Go test binary and its copy ran 1.8-4.6% apart on
// this project's machines), and the difference is a property of that cache
// state, not of the code. Dropping the compared programs' files before a
// run and between its process blocks makes every side read its code back
// the same way, and every block draw where it lands afresh.
package pagecache

// PageSize is the unit the counts are in.
const PageSize = 4096

// Result is what dropping one file came to.
type Result struct {
	Path string
	// Pages is the file's length in pages; Before and After count its pages
	// the cache held before and after the drop (-1 when they could not be
	// counted). After stays above zero while a running process maps them.
	Pages, Before, After int
	// Err is why the file could not be dropped (nil when it was).
	Err error
}

// Dropped reports whether the file left the cache entirely.
func (r Result) Dropped() bool { return r.Err == nil && r.After == 0 }

// pages is the number of pages of a file of size bytes.
func pages(size int64) int { return int((size + PageSize - 1) / PageSize) }

// Facility names what dropping rests on, for the unsupported_platform
// reason elsewhere.
const Facility = "dropping a file from the page cache (posix_fadvise, mincore)"

// MaxBallastPages is the largest ballast a block start holds (16 MiB).
//
// The kernel hands a freed page back to the next allocation on the same
// CPU first, so a file dropped and read straight back lands in the very
// pages it left: measured here, a dropped 24-page and a 1,668-page program
// came back in the same physical pages round after round, and a drop
// alone drew nothing new. A ballast of a random number of pages, allocated
// after the drop and held while the programs read their files back, takes
// the pages the drop freed and a random share of those below them, so the
// files land elsewhere each time (with one, no page of a round was in a
// frame of the round before).
const MaxBallastPages = 4096

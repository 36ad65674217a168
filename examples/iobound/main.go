// Command iobound is the I/O-bound benchmark program: -n times, it writes
// -kib KiB to a new temporary file in -dir in 64 KiB writes, fsyncs it,
// reads it back and closes it. Its time goes to the disk's flushes, not to
// the CPU; iobound -kib 1000 against iobound -kib 1020 is exactly 2% more
// data.
//
// Each file is unlinked as soon as it is created: the open descriptor
// keeps it, and its writes still reach the disk, but no name is left in
// -dir even when the process is killed mid-run.
package main

import (
	"flag"
	"fmt"
	"os"
)

const writeSize = 64 << 10

func main() {
	kib := flag.Int("kib", 1000, "KiB written, fsynced and read back per repetition")
	reps := flag.Int("n", 4, "repetitions, each with a new file")
	dir := flag.String("dir", os.TempDir(), "directory of the temporary files")
	flag.Parse()
	if *kib < 1 || *reps < 0 {
		fmt.Fprintln(os.Stderr, "iobound: need -kib >= 1 and -n >= 0")
		os.Exit(2)
	}
	buf := make([]byte, *kib<<10)
	for i := range buf {
		buf[i] = byte(i * 131) // not all zeros, not trivially compressible
	}
	sum := 0
	for range *reps {
		n, err := once(*dir, buf)
		if err != nil {
			fmt.Fprintln(os.Stderr, "iobound:", err)
			os.Exit(1)
		}
		sum += n
	}
	fmt.Println(sum)
}

// once writes buf to a new unlinked file in 64 KiB writes, fsyncs it and
// reads it back, returning the bytes read.
func once(dir string, buf []byte) (int, error) {
	f, err := os.CreateTemp(dir, "iobound-*.tmp")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if err := os.Remove(f.Name()); err != nil {
		return 0, err
	}
	for at := 0; at < len(buf); at += writeSize {
		if _, err := f.Write(buf[at:min(at+writeSize, len(buf))]); err != nil {
			return 0, err
		}
	}
	if err := f.Sync(); err != nil {
		return 0, err
	}
	return f.ReadAt(make([]byte, len(buf)), 0)
}

// Command spanload is a span-protocol client (man fb-span(7)) for tests
// and for measuring fb-record's ingest: it connects to
// $FLYBENCH_RECORD_SOCKET with -c connections and writes -n span lines on
// each, as fast as it can, for -b benchmarks named load-0, load-1, ...
// Every -fail-th span is a failure. Each connection also begins -open
// spans it never ends, and with -pause it waits that long after its
// spans before closing (so a live display has something to show); -tail
// adds one last line of your own.
//
//	fb-record --progress none -- spanload -n 1000000 > rec.ndjson
package main

import (
	"bufio"
	"flag"
	"fmt"
	"net"
	"os"
	"strconv"
	"sync"
	"time"
)

func main() {
	n := flag.Int("n", 1000, "span lines per connection")
	conns := flag.Int("c", 1, "connections")
	benches := flag.Int("b", 2, "benchmarks")
	fail := flag.Int("fail", 10, "every fail-th span is a failure (0: none)")
	open := flag.Int("open", 0, "spans begun and never ended, per connection")
	pause := flag.Duration("pause", 0, "wait this long before closing each connection")
	tail := flag.String("tail", "", "a last line to write on each connection (tests write a malformed one)")
	flag.Parse()
	path := os.Getenv("FLYBENCH_RECORD_SOCKET")
	if path == "" || *n < 0 || *conns < 1 || *benches < 1 {
		fmt.Fprintln(os.Stderr, "spanload: needs FLYBENCH_RECORD_SOCKET (run it under fb-record), -n >= 0, -c >= 1, -b >= 1")
		os.Exit(2)
	}
	var wg sync.WaitGroup
	errs := make(chan error, *conns)
	for range *conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- send(path, *n, *benches, *fail, *open, *pause, *tail)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			fmt.Fprintln(os.Stderr, "spanload:", err)
			os.Exit(1)
		}
	}
}

// send writes one connection's lines.
func send(path string, n, benches, fail, open int, pause time.Duration, tail string) error {
	c, err := net.Dial("unix", path)
	if err != nil {
		return err
	}
	defer c.Close()
	w := bufio.NewWriterSize(c, 64<<10)
	w.WriteString("flybench-span 1\n")
	for i := range open {
		fmt.Fprintf(w, "begin open-%d load-%d\n", i, i%benches)
	}
	var line []byte
	for i := range n {
		outcome := "success"
		if fail > 0 && i%fail == fail-1 {
			outcome = "failure"
		}
		line = append(line[:0], "span load-"...)
		line = strconv.AppendInt(line, int64(i%benches), 10)
		line = append(line, ' ')
		line = strconv.AppendInt(line, int64(1000+i%5000), 10)
		line = append(line, ' ')
		line = append(line, outcome...)
		line = append(line, '\n')
		w.Write(line)
	}
	if tail != "" {
		w.WriteString(tail + "\n")
	}
	if err := w.Flush(); err != nil {
		return err
	}
	time.Sleep(pause)
	return nil
}

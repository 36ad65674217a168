// Command load is a periodic background CPU load for drift experiments: it
// keeps -threads goroutines busy for the first -duty share of every
// -period, idle for the rest, until -for has passed (or forever when 0).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"
)

func main() {
	period := flag.Duration("period", time.Second, "length of one busy+idle cycle")
	duty := flag.Float64("duty", 0.5, "busy share of each cycle, 0 to 1")
	threads := flag.Int("threads", runtime.NumCPU(), "busy goroutines during the busy share")
	total := flag.Duration("for", 0, "stop after this long (0 = run until killed)")
	flag.Parse()
	if *period <= 0 || *duty < 0 || *duty > 1 || *threads < 1 {
		fmt.Fprintln(os.Stderr, "load: need -period > 0, 0 <= -duty <= 1, -threads >= 1")
		os.Exit(2)
	}
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < *threads; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cycle(start, *period, *duty, *total)
		}()
	}
	wg.Wait()
}

// cycle spins while the square wave is high and sleeps while it is low.
func cycle(start time.Time, period time.Duration, duty float64, total time.Duration) {
	busy := time.Duration(float64(period) * duty)
	x := uint64(1)
	for total == 0 || time.Since(start) < total {
		phase := time.Since(start) % period
		if phase >= busy {
			time.Sleep(period - phase)
			continue
		}
		for i := 0; i < 100_000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	if x == 0 {
		fmt.Println(x)
	}
}

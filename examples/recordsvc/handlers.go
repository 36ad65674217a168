package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/flybench/flybench/recorder"
)

// handler serves one request and says how it ended.
type handler func(w http.ResponseWriter, r *http.Request) recorder.Outcome

// endpoint is one instrumented path of the service.
type endpoint struct {
	path, benchmark string
	h               handler
}

// endpoints are the service's paths, each timed as its own benchmark. The
// occasional ones count their requests, so which request is slow or fails
// is fixed, not random.
func endpoints() []endpoint {
	var slowN, failN atomic.Int64
	return []endpoint{
		{"/fast", "fast request", fast},
		{"/cpu", "cpu-heavy request", cpuHeavy},
		{"/memory", "memory-burst request", memoryBurst},
		{"/wait", "wait-bound request", waiting},
		{"/slow", "occasionally slow request", func(w http.ResponseWriter, r *http.Request) recorder.Outcome {
			if slowN.Add(1)%10 == 0 {
				return sleep(w, r, 20*time.Millisecond)
			}
			return fast(w, r)
		}},
		{"/flaky", "occasionally failing request", func(w http.ResponseWriter, r *http.Request) recorder.Outcome {
			if failN.Add(1)%7 == 0 {
				http.Error(w, "flaky: failed on purpose", http.StatusInternalServerError)
				return recorder.Failure
			}
			return fast(w, r)
		}},
	}
}

// mux wraps every endpoint's handler in a span of its benchmark.
func mux(rec *recorder.Recorder, eps []endpoint) *http.ServeMux {
	m := http.NewServeMux()
	for _, ep := range eps {
		b := rec.Register(ep.benchmark)
		m.HandleFunc(ep.path, func(w http.ResponseWriter, r *http.Request) {
			span := rec.Begin(b)
			span.Finish(ep.h(w, r))
		})
	}
	return m
}

func fast(w http.ResponseWriter, _ *http.Request) recorder.Outcome {
	fmt.Fprintln(w, "ok")
	return recorder.Success
}

// cpuHeavy mixes integers for about a millisecond.
func cpuHeavy(w http.ResponseWriter, _ *http.Request) recorder.Outcome {
	x := uint64(1)
	for range 1_000_000 {
		x = x*6364136223846793005 + 1442695040888963407
	}
	fmt.Fprintln(w, x)
	return recorder.Success
}

// memoryBurst fills a fresh 8 MiB table, touching every page.
func memoryBurst(w http.ResponseWriter, _ *http.Request) recorder.Outcome {
	table := make([]uint64, 1<<20)
	for i := range table {
		table[i] = uint64(i) * 0x9e3779b97f4a7c15
	}
	var sum uint64
	for i := 0; i < len(table); i += 512 {
		sum += table[i]
	}
	fmt.Fprintln(w, sum)
	return recorder.Success
}

func waiting(w http.ResponseWriter, r *http.Request) recorder.Outcome {
	return sleep(w, r, 5*time.Millisecond)
}

// sleep waits d, under a deadline of 10×d: a request that outlives its
// deadline is a timeout, one whose client went away is cancelled.
func sleep(w http.ResponseWriter, r *http.Request, d time.Duration) recorder.Outcome {
	ctx, cancel := context.WithTimeout(r.Context(), 10*d)
	defer cancel()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		fmt.Fprintln(w, "ok")
		return recorder.Success
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			http.Error(w, "timeout", http.StatusGatewayTimeout)
			return recorder.Timeout
		}
		return recorder.Cancelled
	}
}

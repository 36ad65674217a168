package main

import (
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// load is the bounded local load client's result.
type load struct {
	sent, errors int64
	elapsed      time.Duration
}

// drive sends n requests to base with c concurrent clients, cycling
// through paths in order (request i goes to paths[i mod len(paths)]),
// and stops early only when d has passed or ctx is done.
func drive(ctx context.Context, base string, paths []string, n, c int, d time.Duration) load {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: c}}
	defer client.CloseIdleConnections()
	var next, sent, errs atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for range c {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(n) && ctx.Err() == nil; i = next.Add(1) - 1 {
				sent.Add(1)
				if !get(ctx, client, base+paths[i%int64(len(paths))]) {
					errs.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return load{sent: sent.Load(), errors: errs.Load(), elapsed: time.Since(start)}
}

// get requests url and reads the whole answer; it reports whether the
// status was 200.
func get(ctx context.Context, client *http.Client, url string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return err == nil && resp.StatusCode == http.StatusOK
}

// Package browser opens a report page in headless Chromium, the way a
// person would read it, and says what the browser saw: what the page
// wrote to its console, every network request it tried, the size of each
// plot as laid out, how long it took to load, and a screenshot. The HTML
// report's tests and the docs screenshot (make screenshot) use it.
package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Names are the executables tried, in order, by Find: Debian's package
// installs chromium.
var Names = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// ErrNotFound is Find's error when no browser is installed.
var ErrNotFound = errors.New("no Chromium found on PATH (tried chromium, chromium-browser, google-chrome); " +
	"make test installs Debian's chromium package when run as root with apt-get, or: apt-get install chromium")

// Find is the path of a Chromium executable: $FLYBENCH_CHROMIUM when set,
// else the first of Names on PATH.
func Find() (string, error) {
	if p := os.Getenv("FLYBENCH_CHROMIUM"); p != "" {
		if _, err := exec.LookPath(p); err != nil {
			return "", fmt.Errorf("FLYBENCH_CHROMIUM=%q: %w", p, err)
		}
		return p, nil
	}
	for _, name := range Names {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNotFound
}

// Options say how to look at a page.
type Options struct {
	// Exec is the browser's path (Find).
	Exec string
	// Width is the viewport's width in CSS pixels; 0 is 1280.
	Width int
	// Height is the screenshot's height: 0 captures the whole page,
	// else the top Height pixels (the first screen, for the docs).
	Height int
	// Timeout bounds the whole visit; 0 is one minute.
	Timeout time.Duration
}

// Figure is one inline SVG as the browser laid it out.
type Figure struct {
	// Label is the SVG's aria-label, or its <title>, or "" when it has
	// neither.
	Label string
	// Elements counts the SVG's descendant elements: drawing marks,
	// text, groups.
	Elements int
	// Width and Height are its rendered size in CSS pixels.
	Width, Height float64
}

// Page is what the browser saw of one file.
type Page struct {
	// Console holds the page's console errors and warnings, uncaught
	// exceptions and browser-log errors ("type: text").
	Console []string
	// Requests are the URLs the page asked for besides itself.
	Requests []string
	// Figures are the page's inline SVGs, in document order.
	Figures []Figure
	// Load is the time from navigation to the load event, as the
	// browser's own performance timeline measured it.
	Load time.Duration
	// Height is the page's full height in CSS pixels.
	Height int
	// Screenshot is a PNG of the page (Options.Height).
	Screenshot []byte
}

// Open loads the HTML file at path in a fresh headless browser and
// returns what it saw.
func Open(path string, opt Options) (*Page, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, err
	}
	if opt.Width == 0 {
		opt.Width = 1280
	}
	if opt.Timeout == 0 {
		opt.Timeout = time.Minute
	}
	profile, err := os.MkdirTemp("", "flybench-chromium-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(profile)
	allocOpts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(opt.Exec),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(opt.Width, 900),
		// As root in a container the sandbox cannot start; the page is
		// our own file and the network is never used.
		chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	)
	ctx, cancel := context.WithTimeout(context.Background(), opt.Timeout)
	defer cancel()
	actx, acancel := chromedp.NewExecAllocator(ctx, allocOpts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	// Start the browser and its tab before subscribing, so no message of
	// the page is lost.
	if err := chromedp.Do(bctx); err != nil {
		return nil, fmt.Errorf("start %s: %w", opt.Exec, err)
	}
	page := &Page{}
	var mu sync.Mutex
	self := (&url.URL{Scheme: "file", Path: abs}).String()
	lctx, lcancel := context.WithCancel(bctx)
	defer lcancel()
	if err := chromedp.Listen(lctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		if e, ok := ev.(*network.EventRequestWillBeSent); ok && e.Request.URL != self {
			page.Requests = append(page.Requests, e.Request.URL)
		}
	}); err != nil {
		return nil, err
	}
	messages := chromedp.Console(lctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			switch m.Type {
			case chromedp.ConsoleError, chromedp.ConsoleWarning, chromedp.ConsoleException:
				mu.Lock()
				page.Console = append(page.Console, m.String())
				mu.Unlock()
			}
		}
	}()
	if err := chromedp.Do(bctx,
		setViewport(opt.Width, 900),
		chromedp.Navigate(self),
	); err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	if page.Figures, err = chromedp.Run(bctx, chromedp.Evaluate[[]Figure](figuresJS)); err != nil {
		return nil, fmt.Errorf("inspect %s: %w", path, err)
	}
	loadMS, err := chromedp.Run(bctx, chromedp.Evaluate[float64](loadJS))
	if err != nil {
		return nil, fmt.Errorf("inspect %s: %w", path, err)
	}
	page.Load = time.Duration(loadMS * float64(time.Millisecond))
	if page.Height, err = chromedp.Run(bctx, chromedp.Evaluate[int](`document.documentElement.scrollHeight`)); err != nil {
		return nil, fmt.Errorf("inspect %s: %w", path, err)
	}
	shot := chromedp.FullScreenshot(100)
	if opt.Height > 0 {
		shot = chromedp.CaptureScreenshot()
		if err := chromedp.Do(bctx, setViewport(opt.Width, opt.Height)); err != nil {
			return nil, err
		}
	}
	if page.Screenshot, err = chromedp.Run(bctx, shot); err != nil {
		return nil, fmt.Errorf("screenshot of %s: %w", path, err)
	}
	// A round trip after the last action, so the console's queue holds
	// every message the page wrote before it.
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[int](`1`)); err != nil {
		return nil, err
	}
	lcancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	return page, nil
}

// setViewport fixes the layout viewport, so screenshots have one width.
func setViewport(w, h int) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: int64(w), Height: int64(h), DeviceScaleFactor: 1,
		})
		return chromedp.Void{}, err
	}
}

// figuresJS describes every inline SVG that is not nested in another.
const figuresJS = `Array.from(document.querySelectorAll('svg')).filter(s => !s.parentElement.closest('svg')).map(s => {
  const r = s.getBoundingClientRect();
  const t = s.querySelector('title');
  return {Label: s.getAttribute('aria-label') || (t ? t.textContent : ''),
          Elements: s.querySelectorAll('*').length, Width: r.width, Height: r.height};
})`

// loadJS is the navigation's load time in milliseconds.
const loadJS = `(() => { const n = performance.getEntriesByType('navigation')[0]; return n ? n.loadEventEnd - n.startTime : -1; })()`

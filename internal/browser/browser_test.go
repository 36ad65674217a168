package browser

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// browserPath is the installed Chromium, or the test is skipped saying why.
func browserPath(t *testing.T) string {
	t.Helper()
	p, err := Find()
	if errors.Is(err, ErrNotFound) {
		t.Skip("skipped: " + err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func writePage(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "page.html")
	page := "<!DOCTYPE html><html><head><meta charset=utf-8><title>t</title></head><body>" + body + "</body></html>"
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOpenSeesWhatAPersonWould checks the checker: a clean page with two
// plots, and a page that errs, loads from the network and draws an empty
// plot, must each be told apart.
func TestOpenSeesWhatAPersonWould(t *testing.T) {
	exe := browserPath(t)
	good := writePage(t, `<h1>report</h1>
<svg role="img" aria-label="ratios" width="200" height="100" viewBox="0 0 200 100"><rect x="1" y="1" width="50" height="50"/><circle cx="100" cy="50" r="10"/></svg>
<svg width="120" height="60"><title>forest</title><line x1="0" y1="0" x2="100" y2="50" stroke="black"/></svg>`)
	p, err := Open(good, Options{Exec: exe})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Console) != 0 || len(p.Requests) != 0 {
		t.Errorf("clean page: console %q, requests %q", p.Console, p.Requests)
	}
	if len(p.Figures) != 2 || p.Figures[0].Label != "ratios" || p.Figures[1].Label != "forest" ||
		p.Figures[0].Elements != 2 || p.Figures[0].Width != 200 || p.Figures[1].Height != 60 {
		t.Errorf("figures: %+v", p.Figures)
	}
	if !bytes.HasPrefix(p.Screenshot, []byte("\x89PNG")) || p.Height <= 0 || p.Load < 0 {
		t.Errorf("screenshot %d bytes, height %d, load %v", len(p.Screenshot), p.Height, p.Load)
	}

	bad := writePage(t, `<svg width="100" height="50"></svg>
<img src="http://192.0.2.1/x.png" alt="">
<script>console.error("boom"); undefinedFunction();</script>`)
	p, err = Open(bad, Options{Exec: exe, Height: 300})
	if err != nil {
		t.Fatal(err)
	}
	console := strings.Join(p.Console, "\n")
	if !strings.Contains(console, "boom") || !strings.Contains(console, "undefinedFunction") {
		t.Errorf("console errors not seen: %q", p.Console)
	}
	if len(p.Requests) != 1 || p.Requests[0] != "http://192.0.2.1/x.png" {
		t.Errorf("requests: %q", p.Requests)
	}
	if len(p.Figures) != 1 || p.Figures[0].Elements != 0 {
		t.Errorf("empty figure not seen: %+v", p.Figures)
	}
}

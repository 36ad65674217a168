// Command shot writes a PNG screenshot of an HTML page as headless
// Chromium renders it: make screenshot uses it for docs/report.png.
//
//	go run ./internal/browser/shot [-width 1280] [-height 1400] PAGE.html OUT.png
//
// It fails when the page wrote console errors or asked the network for
// anything, so a broken report never becomes the README's picture.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/flybench/flybench/internal/browser"
)

func main() {
	width := flag.Int("width", 1280, "viewport width, CSS pixels")
	height := flag.Int("height", 0, "screenshot height, CSS pixels (0: the whole page)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: shot [-width N] [-height N] PAGE.html OUT.png")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), flag.Arg(1), *width, *height); err != nil {
		fmt.Fprintln(os.Stderr, "shot:", err)
		os.Exit(1)
	}
}

func run(page, out string, width, height int) error {
	exe, err := browser.Find()
	if err != nil {
		return err
	}
	p, err := browser.Open(page, browser.Options{Exec: exe, Width: width, Height: height})
	if err != nil {
		return err
	}
	if len(p.Console) > 0 {
		return fmt.Errorf("%s wrote to the console: %q", page, p.Console)
	}
	if len(p.Requests) > 0 {
		return fmt.Errorf("%s asked the network for %q", page, p.Requests)
	}
	if err := os.WriteFile(out, p.Screenshot, 0o644); err != nil {
		return err
	}
	fmt.Printf("shot: %s (%d plots, page %d px high, loaded in %v) -> %s\n", page, len(p.Figures), p.Height, p.Load, out)
	return nil
}

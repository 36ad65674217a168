package html

import (
	"bytes"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/report/figure"
)

func TestAccessibleSVG(t *testing.T) {
	got, err := accessibleSVG(figure.Figure{Name: "x", Alt: `a "b"`, SVG: []byte("<!-- c -->\n<svg width=\"1\"></svg>")})
	if err != nil || string(got) != `<svg role="img" aria-label="a &#34;b&#34;" width="1"></svg>` {
		t.Errorf("got %q, %v", got, err)
	}
	own := []byte(`<svg role="graphics-document" aria-label="own"></svg>`)
	if got, err := accessibleSVG(figure.Figure{Name: "x", Alt: "alt", SVG: own}); err != nil || !bytes.Equal(got, own) {
		t.Errorf("an SVG with its own role: got %q, %v", got, err)
	}
	if _, err := accessibleSVG(figure.Figure{Name: "x", SVG: []byte("<png/>")}); err == nil || !strings.Contains(err.Error(), `figure "x"`) {
		t.Errorf("no <svg>: err %v", err)
	}
}

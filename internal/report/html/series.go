package html

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/report/figure"
	"github.com/flybench/flybench/internal/report/series"
	"github.com/flybench/flybench/pkg/ndjson"
)

// WriteSeries renders the page of a stream of fb-history's series: for
// each series its plot (figure.DrawSeries) and the table of its points
// with its change points, as the console gives them.
func WriteSeries(w *bytes.Buffer, all []ndjson.Series) error {
	doc := htmlDoc{}
	for i := range all {
		s := &all[i]
		id := "series-" + strconv.Itoa(i+1)
		fig, err := figure.DrawSeries(s)
		if err != nil {
			return err
		}
		figs, err := htmlFigures(id, []figure.Figure{*fig})
		if err != nil {
			return err
		}
		doc.Sections = append(doc.Sections, htmlSection{ID: id, Kind: "series", Title: series.Title(s),
			Figures: figs, Cards: []*htmlCard{seriesCard(s)}})
	}
	doc.Title = pageTitle(doc.Sections)
	if err := pageTemplate.Execute(w, doc); err != nil {
		return fmt.Errorf("render html: %w", err)
	}
	return nil
}

// seriesCard is the table of a series' points and the lines of its
// change points.
func seriesCard(s *ndjson.Series) *htmlCard {
	rows := series.Table(s)
	right := []bool{false, false, false, true, false, true, false}
	t := &htmlTable{}
	for _, text := range rows[0] {
		t.Head = append(t.Head, htmlCell{Text: text, Span: 1})
	}
	t.Head[3].Right, t.Head[5].Right = true, true
	for _, row := range rows[1:] {
		var cells []htmlCell
		for j, text := range row {
			cells = append(cells, htmlCell{Text: text, Right: right[j], Span: 1})
		}
		t.Rows = append(t.Rows, cells)
	}
	card := &htmlCard{Title: "runs", Blocks: []htmlBlock{{Table: t}}}
	for _, line := range series.ChangeLines(s) {
		card.Blocks = append(card.Blocks, htmlBlock{Text: strings.TrimSpace(line)})
	}
	return card
}

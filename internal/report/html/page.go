package html

import (
	"html/template"
)

// pageTemplate is the HTML report's page. Every string from the stream
// goes through html/template's escaping; only the figures' SVG is
// inserted as it is. The palette is Okabe–Ito and every colour stands
// beside the words it marks.
var pageTemplate = template.Must(template.Must(template.New("page").Parse(pageHTML)).Parse(partsHTML))

const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>` + pageCSS + `</style>
</head>
<body>
<a class="skip" href="#main">Skip to the report</a>
<header>
<h1>{{.Title}}</h1>
<nav aria-label="Contents"><h2>Contents</h2>
<ol>
{{- range .Sections}}
<li><a href="#{{.ID}}">{{.Kind}}: {{.Title}}</a>
{{- if .Figures}}<ol>{{range .Figures}}<li><a href="#{{.ID}}">{{.Title}}</a></li>{{end}}</ol>{{end}}</li>
{{- end}}
{{- if .AA}}
<li><a href="#aa">A/A series</a></li>
{{- end}}
{{- if .Suites}}
<li><a href="#suites">suites</a></li>
{{- end}}
</ol></nav>
<p class="legend">Verdicts are written out; their colours only repeat the words:
<span class="tone better">faster / better</span>
<span class="tone worse">slower / worse</span>
<span class="tone same">equivalent</span>
<span class="tone warn">inconclusive / warning</span></p>
</header>
<main id="main">
{{- range .Sections}}
<section id="{{.ID}}" aria-labelledby="{{.ID}}-title">
<h2 id="{{.ID}}-title">{{.Kind}}: {{.Title}}</h2>
<dl class="facts">
{{- range .Facts}}
<dt>{{.Label}}</dt><dd{{if .Tone}} class="tone {{.Tone}}"{{end}}>{{.Text}}</dd>
{{- end}}
</dl>
{{- if .Cases}}
<table class="cases"><caption>cases</caption>
<thead><tr><th scope="col">#</th><th scope="col">case</th><th scope="col">role</th><th scope="col">command</th></tr></thead>
<tbody>
{{- range .Cases}}
<tr><td class="num">{{.Index}}</td><td>{{.Name}}</td><td>{{.Role}}</td><td><code>{{.Command}}</code></td></tr>
{{- end}}
</tbody></table>
{{- end}}
{{- if .Warnings}}
<div class="warnings" role="note" aria-label="warnings"><h3>⚠ Warnings</h3><ul>
{{- range .Warnings}}
<li>{{.}}</li>
{{- end}}
</ul></div>
{{- end}}
{{- range .Figures}}
<figure id="{{.ID}}" aria-labelledby="{{.ID}}-title">
<h3 id="{{.ID}}-title">{{.Title}}</h3>
{{.SVG}}
<figcaption>{{.Alt}}</figcaption>
</figure>
{{- end}}
{{- range .Cards}}{{template "card" .}}{{end}}
</section>
{{- end}}
{{- if .AA}}
<section id="aa" aria-labelledby="aa-title">
<h2 id="aa-title">A/A series</h2>
{{- range .AA}}{{template "card" .}}{{end}}
</section>
{{- end}}
{{- if .Suites}}
<section id="suites" aria-labelledby="suites-title">
<h2 id="suites-title">suites</h2>
{{- range .Suites}}{{template "card" .}}{{end}}
</section>
{{- end}}
</main>
</body>
</html>
`

// partsHTML are the page's cards and tables.
const partsHTML = `{{define "card"}}
<section class="card{{if .Comparison}} comparison{{end}}">
{{- if .Title}}
<h3>{{.Title}}</h3>
{{- end}}
{{- range .Blocks}}
{{- if .Rows}}
<table class="rows"><tbody>
{{- range .Rows}}
<tr><th scope="row">{{.Label}}</th><td>{{if .Table}}{{template "table" .Table}}{{else if .Tone}}<span class="tone {{.Tone}}">{{.Text}}</span>{{else}}{{.Text}}{{end}}</td></tr>
{{- end}}
</tbody></table>
{{- else if .Table}}
{{template "table" .Table}}
{{- else}}
<p>{{.Text}}</p>
{{- end}}
{{- end}}
</section>
{{- end}}{{define "table"}}<table class="grid"><thead><tr>
{{- range .Head}}<th scope="col"{{if .Right}} class="num"{{end}}{{if gt .Span 1}} colspan="{{.Span}}"{{end}}>{{.Text}}</th>{{end}}</tr></thead><tbody>
{{- range .Rows}}
<tr>{{range .}}<td{{if .Right}} class="num"{{end}}{{if gt .Span 1}} colspan="{{.Span}}" class="note"{{end}}>{{if .Tone}}<span class="tone {{.Tone}}">{{.Text}}</span>{{else}}{{.Text}}{{end}}</td>{{end}}</tr>
{{- end}}
</tbody></table>
{{- end}}`

// pageCSS is the page's only style: light, 1280 px wide at most, and
// printable (no navigation, colours kept, figures not split).
const pageCSS = `
:root{--better:#0072B2;--worse:#D55E00;--same:#009E73;--warn:#E69F00;--ink:#1b1b1b;--rule:#d4d4d4}
body{margin:0;color:var(--ink);background:#fff;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
header,main{max-width:1240px;margin:0 auto;padding:0 20px}
.skip{position:absolute;left:-9999px}
.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px;outline:2px solid var(--better)}
h1{font-size:1.5em;margin:.8em 0 .4em}
h2{font-size:1.3em;border-bottom:2px solid var(--ink);padding-bottom:.15em;margin-top:1.6em}
h3{font-size:1.05em;margin:1.2em 0 .3em}
nav h2{font-size:1em;border:0;margin:.5em 0 0}
nav ol{margin:.2em 0;padding-left:1.6em}
nav ol ol{display:inline;padding:0;font-size:.92em}nav ol ol::before{content:" \2014  "}nav ol ol li{display:inline}nav ol ol li+li::before{content:" \00B7  "}
a{color:#005a8c}
.legend{font-size:.9em}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15em 1em;margin:.6em 0}
dl.facts dt{font-weight:600;color:#444}
dl.facts dd{margin:0}
table{border-collapse:collapse;margin:.4em 0}
caption{text-align:left;font-weight:600;color:#444}
th,td{padding:.15em .6em;text-align:left;vertical-align:top;border-bottom:1px solid var(--rule)}
thead th{border-bottom:2px solid #888}
.num{text-align:right;font-variant-numeric:tabular-nums}
table.rows{width:100%}
table.rows>tbody>tr>th{width:8.5em;color:#444;font-weight:600}
table.rows>tbody>tr>td{white-space:pre-wrap;font-variant-numeric:tabular-nums}
table.grid td,table.grid th{white-space:nowrap}
table.grid td.note{white-space:normal}
td table.grid{margin:0}
code{font-size:.92em}
.card{margin:1em 0;break-inside:avoid-page}
.card h3{border-left:4px solid #888;padding-left:.4em}
.card.comparison h3{border-left-color:var(--better)}
.tone{padding:0 .3em;border-radius:3px}
.better{background:var(--better);color:#fff}
.worse{background:var(--worse);color:#000}
.same{background:var(--same);color:#000}
.warn{background:#fbe8c0;box-shadow:inset 3px 0 var(--warn);padding-left:.5em}
.warnings{border:2px solid var(--warn);background:#fff7e6;padding:.2em 1em;margin:.8em 0}
.warnings h3{margin:.4em 0}
figure{margin:1.2em 0;break-inside:avoid}
figure svg{width:100%;max-width:940px;height:auto}
figcaption{font-size:.92em;color:#333;max-width:60em}
@media print{
nav,.skip{display:none}
body{font-size:10.5pt}
header,main{max-width:none;padding:0}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
a{color:inherit;text-decoration:none}
h2{break-before:auto;break-after:avoid}
}
`

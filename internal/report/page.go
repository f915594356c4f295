package report

// pageHTML is the report's page. Its style is inline and it loads nothing,
// so the file opens anywhere, offline.
const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>context-budget replay</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 62em; color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; }
table.totals td { padding: 0.15em 1em 0.15em 0; }
table.totals td:first-child { color: #555; }
figure { margin: 0.5em 0 1.5em; }
figure svg { width: 100%; height: auto; }
figcaption, .meta { color: #444; font-size: 0.9em; }
code { font-size: 0.9em; }
</style>
</head>
<body>
<h1>context-budget replay</h1>
<p>What the hook's policy would have done on these sessions: where the warning and the pause would have fired, and at each pause what relaying was predicted to save against what carrying on really cost. Lines: {{.Lines}}.</p>
<table class="totals">
<tr><td>sessions</td><td id="total-sessions">{{.Totals.Sessions}}</td></tr>
<tr><td>transcripts read</td><td>{{mb .Totals.Bytes}}, {{.Totals.Responses}} responses{{if .Totals.Errors}}, {{.Totals.Errors}} unreadable{{end}}</td></tr>
<tr><td>notices</td><td>{{.Totals.Notices}}: {{.Totals.Warnings}} warnings, {{.Totals.Pauses}} pauses</td></tr>
<tr><td>compacted before any notice</td><td>{{.Totals.CompactedBeforeAnyNotice}}</td></tr>
<tr><td>carrying on after the pauses</td><td>{{if .Totals.CarryOnPoints}}predicted {{usd .Totals.PredictedCarryOnUSD}}, actual {{usd .Totals.ActualCarryOnUSD}} over {{.Totals.CarryOnPoints}} pauses; median absolute error {{pct .Totals.PauseCarryOnMedianAbsError}}{{else}}no pause with both a prediction and an actual cost{{end}}</td></tr>
<tr><td>the forecast of carrying on 100k tokens</td><td>{{if .Totals.Points}}median absolute error {{pct .Totals.CarryOnMedianAbsError}} over {{.Totals.Points}} responses after which a session went on 100k tokens (requests: {{pct .Totals.RequestsMedianAbsError}}){{else}}no session went on 100k tokens after a priced response{{end}}</td></tr>
{{range .Totals.CarryOnByModel}}<tr><td>the forecast on {{.Model}}</td><td class="by-model">median absolute error {{pctOf .MedianAbsError}} over {{.Points}} points</td></tr>
{{end}}
</table>

<h2>Peaks against the lines</h2>
<figure class="peaks">
{{.Peaks}}
<figcaption>How high each session's context got, against the warn and pause lines.</figcaption>
</figure>

<h2>Sessions</h2>
{{if .Unplotted}}<p class="meta">Sessions with no response of their own, counted but not plotted: {{.Unplotted}}.</p>{{end}}
{{range .Sessions}}
<section class="session" data-session="{{.SessionID}}">
<h2><code>{{.SessionID}}</code></h2>
<p class="meta"><code>{{.Path}}</code> — responses: {{.Responses}}, peak: {{k .Peak}}, compactions: {{.Compactions}}{{if .Model}}, {{.Model}}{{end}}{{if .Error}}, error: {{.Error}}{{end}}.<br>
Notices: {{.Notices}}.{{if .Pauses}}<br>{{.Pauses}}.{{end}}</p>
<figure class="chart">
{{.Chart}}
</figure>
</section>
{{end}}
</body>
</html>
`

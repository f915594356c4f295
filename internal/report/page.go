package report

// pageHTML is the report's page. Its style is inline and it loads nothing,
// so the file opens anywhere, offline.
const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>context-budget: what relaying would have saved</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 64em; color: #222; padding: 0 1.5em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; } h3 { font-size: 1.02em; margin: 2em 0 0.2em; overflow-wrap: anywhere; }
p.lead { font-size: 1.08em; line-height: 1.45; }
table { border-collapse: collapse; }
table.totals td { padding: 0.2em 1.2em 0.2em 0; vertical-align: top; }
table.totals td:first-child { color: #555; white-space: nowrap; }
table.totals tr.answer td { font-weight: 600; }
table.short th, table.short td { text-align: left; padding: 0.2em 0.9em 0.2em 0; border-bottom: 1px solid #eee; font-size: 0.92em; }
table.short td.num, table.short th.num { text-align: right; }
figure { margin: 0.4em 0 1.2em; }
figure svg { display: block; width: 100%; height: auto; }
figcaption, .meta { color: #444; font-size: 0.9em; }
.meta code { font-size: 0.85em; color: #666; }
details { font-size: 0.9em; color: #333; margin: 0.3em 0; }
details ul { margin: 0.3em 0; }
</style>
</head>
<body>
<h1>What relaying would have saved</h1>
<p class="lead">{{with .Money}}{{if .SpentSessions}}These {{.SpentSessions}} sessions{{if $.Dates}} ({{$.Dates}}){{end}} cost <strong>{{usdv .Spent}}</strong> at API rates, subagents included. {{end}}{{if .Pauses}}At the {{.Pauses}} pauses the hook would have given, relaying was forecast to <strong>{{save .Forecast}}</strong> over the next 100k tokens of each, all told{{if .MeasuredPauses}}; at the {{.MeasuredPauses}} where the session did go on that far, by what carrying on really cost, to <strong>{{save .Measured}}</strong>{{end}}.{{if lt .Forecast 0.0}} A pause set by the window's compaction point, not by price, comes before relaying pays.{{end}}{{else}}No session reached a priced pause: relaying would not have been asked for.{{end}}{{end}}</p>
<table class="totals">
<tr class="answer"><td>spent</td><td id="spent">{{if .Money.SpentSessions}}{{usdv .Money.Spent}} over {{.Money.SpentSessions}} sessions{{else}}not known (no session priced){{end}}</td></tr>
<tr class="answer"><td>relaying at the pauses would have saved</td><td id="saved">{{if .Money.Pauses}}{{usdv .Money.Forecast}} forecast over {{.Money.Pauses}} pauses{{if .Money.MeasuredPauses}}; {{usdv .Money.Measured}} by what carrying on really cost at {{.Money.MeasuredPauses}} of them{{end}}{{if lt .Money.Forecast 0.0}} (below zero: relaying there would have cost more than carrying on){{end}}{{else}}nothing: no priced pause{{end}}</td></tr>
{{if .Money.ColdRewrites}}<tr class="answer"><td>cold cache re-writes</td><td id="cold">{{.Money.ColdRewrites}}</td></tr>{{end}}
<tr><td>sessions</td><td id="total-sessions">{{.Totals.Sessions}} ({{mb .Totals.Bytes}}, {{.Totals.Responses}} responses{{if .Totals.Errors}}, {{.Totals.Errors}} unreadable{{end}})</td></tr>
<tr><td>notices</td><td>{{.Totals.Notices}}: {{.Totals.Warnings}} warnings, {{.Totals.Pauses}} pauses</td></tr>
{{if .Fuse}}<tr><td>spend fuse</td><td>{{.Fuse.Describe}}</td></tr>
{{end}}<tr><td>compacted before any notice</td><td>{{.Totals.CompactedBeforeAnyNotice}}</td></tr>
<tr><td>room before the automatic compactions</td><td id="total-rooms">{{with .Totals.Rooms}}{{if .Auto}}{{.Auto}} automatic compactions, {{.Paused}} with a pause in the climb, {{.Short}} with less than 20k tokens of room; median {{k .MedianTokens}} tokens in {{printf "%.0f" .MedianResponses}} responses{{else}}no automatic compaction{{end}}{{end}}</td></tr>
<tr><td>how good the forecast was</td><td>{{if .Totals.Points}}off by {{pct .Totals.CarryOnMedianAbsError}} (median) over {{.Totals.Points}} responses after which a session went on 100k tokens{{if .Totals.CarryOnPoints}}; at the pauses, {{pct .Totals.PauseCarryOnMedianAbsError}}{{end}}{{else}}no session went on 100k tokens after a priced response{{end}}</td></tr>
<tr><td>cold re-writes</td><td id="total-cold">{{cold .Totals.Cold}}</td></tr>
{{range .Totals.CarryOnByModel}}<tr><td>the forecast on {{.Model}}</td><td class="by-model">median absolute error {{pctOf .MedianAbsError}} over {{.Points}} points</td></tr>
{{end}}</table>

<h2>How high the sessions climbed</h2>
<figure class="peaks">
{{.Peaks}}
<figcaption>Each session's peak context, against the lines the sessions had: {{.Lines}}.</figcaption>
</figure>

<h2>Sessions</h2>
{{if .Unplotted}}<p class="meta">Sessions with no response of their own, counted but not shown: {{.Unplotted}}.</p>{{end}}
{{range .Sessions}}
<section class="session" data-session="{{.SessionID}}">
<h3>{{.Title}}</h3>
<p class="meta">{{if .About.SpentUSD}}cost {{spent .About.SpentUSD}} · {{end}}{{.Responses}} responses · peak {{k .Peak}} · {{.Compactions}} compaction{{if ne .Compactions 1}}s{{end}}{{if .Model}} · {{.Model}}{{end}}{{if .About.CompactsAt}} · Claude Code compacts at {{k .About.CompactsAt}}{{end}}{{if .Error}} · error: {{.Error}}{{end}} · <code>{{.SessionID}}</code></p>
{{if .Saving}}<p>{{.Saving}}</p>{{end}}
{{if .Notices}}<details><summary>{{.NoticeSummary}}</summary><ul>{{range .Notices}}<li>{{.}}</li>{{end}}</ul></details>{{else}}<p class="meta">No notice.</p>{{end}}
{{if .Room}}<p>Room: {{.Room}}.</p>{{end}}
{{if .Cold}}<p>{{.Cold}}.</p>{{end}}
{{if .Fuse}}<p>Fuse: {{.Fuse.Describe}}.</p>{{end}}
<figure class="chart">
{{.Chart}}
</figure>
</section>
{{end}}
{{if .Short}}
<h2>Short sessions</h2>
<p class="meta">Fewer than {{.ShortUnder}} responses each: listed, not charted.</p>
<table class="short">
<tr><th>session</th><th class="num">responses</th><th class="num">peak</th><th class="num">cost</th><th>notices</th></tr>
{{range .Short}}<tr class="short-session" data-session="{{.SessionID}}"><td>{{.Title}}</td><td class="num">{{.Responses}}</td><td class="num">{{k .Peak}}</td><td class="num">{{spent .About.SpentUSD}}</td><td>{{.NoticeSummary}}</td></tr>
{{end}}</table>
{{end}}
</body>
</html>
`

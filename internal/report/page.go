package report

// pageHTML is the report's page. Its style is inline and it loads nothing,
// so the file opens anywhere, offline. Each chart is one SVG, its key
// above its plot, that takes the page's width: nothing of it is cut off
// at any width a laptop has.
const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>context-budget: what these sessions cost, and what relaying would have saved</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 68em; color: #222; padding: 1em 1.5em 2em; }
h1 { font-size: 1.45em; } h2 { font-size: 1.2em; margin-top: 2em; } h3 { font-size: 1em; margin: 1.6em 0 0.2em; overflow-wrap: anywhere; }
p.answer { font-size: 1.08em; line-height: 1.45; }
table { border-collapse: collapse; }
td, th { padding: 0.2em 1em 0.2em 0; vertical-align: top; text-align: left; }
table.totals td:first-child { color: #555; white-space: nowrap; }
table.list td, table.list th { border-bottom: 1px solid #eee; font-size: 0.92em; }
figure { margin: 0.4em 0 1.2em; } figure svg { display: block; width: 100%; height: auto; }
figcaption { color: #444; font-size: 0.88em; margin-top: 0.2em; }
.meta, ul.notes { color: #444; font-size: 0.9em; }
code { font-size: 0.9em; color: #555; }
details.team-by { margin: 0.3em 0 1em; } tr.total td { font-weight: 600; }
</style>
</head>
<body>
<h1>What these sessions cost, and what relaying would have saved</h1>
{{with .T}}
<p class="answer" id="answer-cost">{{if .PricedSessions}}{{if eq .PricedSessions 1}}This <span class="n">1</span> session{{else}}These <span class="n">{{.PricedSessions}}</span> sessions{{end}}{{if $.Dates}} ({{$.Dates}}){{end}} cost <strong class="usd">{{usd .CostUSD}}</strong> at API rates, subagents included.{{else}}No session could be priced (their models are not in the price table).{{end}}{{if ne .PricedSessions .Sessions}} {{count .Sessions "session"}} in all.{{end}}</p>
<p class="answer" id="answer-forecast">{{if .ForecastPauses}}By the forecast, relaying at the <span class="n">{{.ForecastPauses}}</span> {{noun .ForecastPauses "pause"}} the hook would have given would have <strong class="usd">{{net .ForecastSavingUSD}}</strong> over the next 100k tokens of each, against its real alternative.{{else}}No session reached a priced pause: relaying would not have been asked for.{{end}}</p>
<p class="answer" id="answer-checked">{{if .CarryOnPoints}}Checked against what the sessions really did: after <span class="n">{{.CarryOnPoints}}</span> of those pauses the session went on 100k tokens that could be priced. There, by what carrying on really cost, relaying would have <strong class="usd">{{saved .CheckedSavingUSD}}</strong>; at those {{.CarryOnPoints}} the forecast had said it would have {{saved .CheckedForecastUSD}}.{{else if .ForecastPauses}}None of the pauses can be checked: no session went on 100k tokens after one.{{end}}</p>
<table class="totals">
<tr><td>sessions</td><td>{{.Sessions}} ({{count .Responses "response"}}{{if .Errors}}, {{.Errors}} unreadable{{end}})</td></tr>
<tr><td>notices</td><td>{{if .Notices}}{{if .Warnings}}{{count .Warnings "warning"}}{{end}}{{if and .Warnings .Pauses}}, {{end}}{{if .Pauses}}{{count .Pauses "pause"}}{{end}}{{else}}none{{end}}{{if .CompactedBeforeAnyNotice}}; {{count .CompactedBeforeAnyNotice "session"}} compacted before any notice{{end}}</td></tr>
{{with .Verdicts}}{{if .Choices}}<tr><td>the pauses' verdicts</td><td>by the forecast: {{counts .Choices}}; against {{counts .Against}}; relaying cost more than that at {{.Costlier}}</td></tr>{{end}}{{end}}
<tr><td>room before the automatic compactions</td><td>{{with .Rooms}}{{if .Auto}}{{count .Auto "compaction"}}, {{.Paused}} with a pause in the climb, {{.Short}} with less than 20k tokens of room; median {{k .MedianTokens}}{{else}}no automatic compaction{{end}}{{end}}</td></tr>
<tr><td>how good the forecast was</td><td>{{if .Points}}off by {{pct .CarryOnMedianAbsError}} (median) over {{count .Points "response"}} after which a session went on 100k tokens{{range .CarryOnByModel}}; {{.Model}} {{pctv .MedianAbsError}} over {{.Points}}{{end}}{{else}}no session went on 100k tokens after a priced response{{end}}</td></tr>
<tr><td>cold cache</td><td>{{or .Cold.Words "none"}}</td></tr>
{{if $.Rep.Fuse}}<tr><td>spend fuse</td><td>{{$.Rep.Fuse.Describe}}</td></tr>{{end}}
</table>
{{end}}
{{range .Projects}}
<section class="project" data-project="{{.Name}}">
<h2>{{.Folder}}</h2>
<p class="meta">{{count .N "session"}}, {{usd .CostUSD}}</p>
{{range .Charted}}
<section class="entry"{{if .Chain}} data-chain="{{.Chain}}"{{end}}>
<h3>{{.Title}}</h3>
<ul class="notes">{{range .Notes}}<li class="session" data-session="{{.ID}}"><code>{{short .ID}}</code> {{.Text}}</li>{{end}}</ul>
<figure class="chart">{{.Chart}}<figcaption>{{.Caption}}</figcaption></figure>
</section>
{{end}}
{{if .Listed}}<details class="more"><summary>{{len .Listed}} more, not charted</summary>
<table class="list"><tr><th>entry</th><th>cost</th><th>sessions</th></tr>
{{range .Listed}}<tr><td>{{.Title}}</td><td>{{usd .CostUSD}}</td><td>{{range .Sessions}}<span class="session" data-session="{{.SessionID}}"><code>{{short .SessionID}}</code></span> {{end}}</td></tr>
{{end}}</table></details>{{end}}
</section>
{{end}}
{{template "team" .Rep.Team}}
</body>
</html>
`

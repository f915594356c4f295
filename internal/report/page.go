package report

// pageHTML is the report's page. Its style is inline and it loads nothing,
// so the file opens anywhere, offline. The key sits at the page's top
// left at a fixed place, each sample in a cell 160 pixels wide: the
// screenshot test reads its pixels there.
const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>context-budget: what these sessions cost, and what relaying would have saved</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 68em; color: #222; padding: 3.2em 1.5em 2em; }
#key { position: absolute; top: 0; left: 0; height: 30px; display: flex; margin: 0; padding: 0; background: #fff; }
#key .k { position: relative; width: 160px; height: 30px; font-size: 12px; line-height: 30px; white-space: nowrap; }
#key .k svg { position: absolute; left: 4px; top: 9px; }
#key .k span { position: absolute; left: 50px; }
h1 { font-size: 1.45em; } h2 { font-size: 1.2em; margin-top: 2em; } h3 { font-size: 1em; margin: 1.6em 0 0.2em; overflow-wrap: anywhere; }
p.answer { font-size: 1.08em; line-height: 1.45; }
table { border-collapse: collapse; }
td, th { padding: 0.2em 1em 0.2em 0; vertical-align: top; text-align: left; }
table.totals td:first-child { color: #555; white-space: nowrap; }
table.list td, table.list th { border-bottom: 1px solid #eee; font-size: 0.92em; }
figure { margin: 0.4em 0 1.2em; } figure svg { display: block; width: 100%; height: auto; }
.meta, ul.notes { color: #444; font-size: 0.9em; }
code { font-size: 0.9em; color: #555; }
</style>
</head>
<body>
<div id="key">{{range .Styles}}<div class="k">{{.KeySample}}<span>{{.Name}}</span></div>{{end}}</div>
<h1>What these sessions cost, and what relaying would have saved</h1>
{{with .T}}
<p class="answer" id="answer-cost">{{if .PricedSessions}}These <span class="n">{{.PricedSessions}}</span> sessions{{if $.Dates}} ({{$.Dates}}){{end}} cost <strong class="usd">{{usd .CostUSD}}</strong> at API rates, subagents included.{{else}}No session could be priced (their models are not in the price table).{{end}}{{if ne .PricedSessions .Sessions}} {{.Sessions}} sessions in all.{{end}}</p>
<p class="answer" id="answer-forecast">{{if .ForecastPauses}}By the forecast, relaying at the <span class="n">{{.ForecastPauses}}</span> pauses the hook would have given would have <strong class="usd">{{net .ForecastSavingUSD}}</strong> over the next 100k tokens of each, against its real alternative.{{else}}No session reached a priced pause: relaying would not have been asked for.{{end}}</p>
<p class="answer" id="answer-checked">{{if .CarryOnPoints}}Checked against what the sessions really did: after <span class="n">{{.CarryOnPoints}}</span> of those pauses the session went on 100k tokens that could be priced. There, by what carrying on really cost, relaying would have <strong class="usd">{{saved .CheckedSavingUSD}}</strong>; at those {{.CarryOnPoints}} the forecast had said it would have {{saved .CheckedForecastUSD}}.{{else if .ForecastPauses}}None of the pauses can be checked: no session went on 100k tokens after one.{{end}}</p>
<table class="totals">
<tr><td>sessions</td><td>{{.Sessions}} ({{.Responses}} responses{{if .Errors}}, {{.Errors}} unreadable{{end}})</td></tr>
<tr><td>notices</td><td>{{.Warnings}} warnings, {{.Pauses}} pauses; {{.CompactedBeforeAnyNotice}} sessions compacted before any notice</td></tr>
{{with .Verdicts}}{{if .Choices}}<tr><td>the pauses' verdicts</td><td>by the forecast: {{counts .Choices}}; against {{counts .Against}}; relaying cost more than that at {{.Costlier}}</td></tr>{{end}}{{end}}
<tr><td>room before the automatic compactions</td><td>{{with .Rooms}}{{if .Auto}}{{.Auto}} compactions, {{.Paused}} with a pause in the climb, {{.Short}} with less than 20k tokens of room; median {{k .MedianTokens}}{{else}}no automatic compaction{{end}}{{end}}</td></tr>
<tr><td>how good the forecast was</td><td>{{if .Points}}off by {{pct .CarryOnMedianAbsError}} (median) over {{.Points}} responses after which a session went on 100k tokens{{range .CarryOnByModel}}; {{.Model}} {{pctv .MedianAbsError}} over {{.Points}}{{end}}{{else}}no session went on 100k tokens after a priced response{{end}}</td></tr>
<tr><td>cold cache</td><td>{{cold .Cold}}</td></tr>
{{if $.Rep.Fuse}}<tr><td>spend fuse</td><td>{{$.Rep.Fuse.Describe}}</td></tr>{{end}}
</table>
{{end}}
{{range .Projects}}
<section class="project" data-project="{{.Name}}">
<h2>{{.Name}}</h2>
<p class="meta">{{count .N "session"}}, {{usd .CostUSD}}</p>
{{range .Charted}}
<section class="entry"{{if .Chain}} data-chain="{{.Chain}}"{{end}}>
<h3>{{.Title}}</h3>
<ul class="notes">{{range .Notes}}<li class="session" data-session="{{.ID}}"><code>{{short .ID}}</code> {{.Text}}</li>{{end}}</ul>
<figure class="chart">{{.Chart}}</figure>
</section>
{{end}}
{{if .Listed}}<details class="more"><summary>{{len .Listed}} more, not charted</summary>
<table class="list"><tr><th>entry</th><th>cost</th><th>sessions</th></tr>
{{range .Listed}}<tr><td>{{.Title}}</td><td>{{usd .CostUSD}}</td><td>{{range .Sessions}}<span class="session" data-session="{{.SessionID}}"><code>{{short .SessionID}}</code></span> {{end}}</td></tr>
{{end}}</table></details>{{end}}
</section>
{{end}}
</body>
</html>
`

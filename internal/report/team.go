package report

// teamHTML is the report's section on the team's ledger (design §17):
// the committed rows of the replayed sessions' projects, teammates'
// sessions included, totalled by each key of ledger --by, a table each;
// the chains' table folded. Given replay.Report.Team; nothing when it is
// empty.
const teamHTML = `{{define "team"}}{{if .}}
<section class="team" id="team">
<h2>The team's ledger</h2>
<p class="meta">The ledger rows committed in these projects, teammates' sessions included: the same totals as <code>context-budget ledger --by</code>. Net is what the pauses' verdicts said relaying saves over the alternative.</p>
{{range .}}<details class="team-by" data-by="{{.By}}"{{if ne .By "chain"}} open{{end}}><summary>by {{.By}}</summary>
<table class="list">
<tr><th>{{.By}}</th><th>sessions</th><th>cost</th><th>relays</th><th>pauses</th><th>net</th></tr>
{{range .Groups}}<tr><td>{{if .Key}}{{.Key}}{{else}}-{{end}}</td><td>{{.Sessions}}</td><td>{{usd .CostUSD}}</td><td>{{.Relays}}</td><td>{{.Pauses}}</td><td>{{usd .NetUSD}}</td></tr>
{{end}}{{with .Total}}<tr class="total"><td>total</td><td>{{.Sessions}}</td><td>{{usd .CostUSD}}</td><td>{{.Relays}}</td><td>{{.Pauses}}</td><td>{{usd .NetUSD}}</td></tr>{{end}}
</table></details>
{{end}}</section>
{{end}}{{end}}`

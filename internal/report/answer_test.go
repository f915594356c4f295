package report_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/report"
)

func ptr(v float64) *float64 { return &v }

// TestAnswer: the page answers one question plainly. What the sessions
// cost, what relaying at the pauses would have saved by the forecast,
// and, in a sentence of its own with its own count, what the pauses that
// could be checked show, each saying which it is. A forecast saving and a
// checked loss are never in one sentence.
func TestAnswer(t *testing.T) {
	rep := sampleReplay(t)
	rep.Totals.CostUSD, rep.Totals.PricedSessions = 42.5, 4
	rep.Totals.ForecastSavingUSD, rep.Totals.ForecastPauses = 141.68, 136
	rep.Totals.CarryOnPoints, rep.Totals.CheckedSavingUSD, rep.Totals.CheckedForecastUSD = 3, -3.21, 2.10
	rep.Totals.Points = 12
	rep.Totals.CarryOnByModel = []replay.ModelError{{Model: "claude-opus-4-6", Points: 12, MedianAbsError: 0.183}}
	var b bytes.Buffer
	if err := report.Render(&b, rep); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	sentences := map[string]string{
		"answer-cost":     `cost <strong class="usd">$42.50</strong> at API rates, subagents included.`,
		"answer-forecast": `By the forecast, relaying at the <span class="n">136</span> pauses the hook would have given would have <strong class="usd">saved $141.68</strong> over the next 100k tokens of each, against its real alternative.`,
		"answer-checked":  `Checked against what the sessions really did: after <span class="n">3</span> of those pauses the session went on 100k tokens that could be priced. There, by what carrying on really cost, relaying would have <strong class="usd">cost $3.21 more than carrying on</strong>; at those 3 the forecast had said it would have saved $2.10.`,
	}
	for id, want := range sentences {
		got := regexp.MustCompile(`<p class="answer" id="` + id + `">(.*?)</p>`).FindStringSubmatch(page)
		if got == nil || !strings.Contains(got[1], want) {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
	for _, s := range strings.Split(page, ". ") {
		if strings.Contains(s, "$141.68") && strings.Contains(s, "$3.21") {
			t.Errorf("one sentence puts the forecast saving beside the checked loss: %q", s)
		}
	}
	if !strings.Contains(page, "claude-opus-4-6 18% over 12") {
		t.Error("the page lacks the forecast's error per model")
	}
}

// TestProjectsAndChains: projects most costly first, their entries most
// costly first, a relay chain as one entry in its sessions' places, the
// first few charted and the rest listed in a <details>.
func TestProjectsAndChains(t *testing.T) {
	mk := func(id, project string, cost float64, chain string, place int) replay.Session {
		s := replay.Session{SessionID: id, Project: project, CostUSD: ptr(cost), Responses: 20, Peak: 120_000, Chain: chain, Place: place,
			Started: "2026-03-01T10:00:00Z"}
		for i := range 20 {
			s.Readings = append(s.Readings, int64(20_000+i*5_000))
			s.WarnLines = append(s.WarnLines, 109_000)
			s.PauseLines = append(s.PauseLines, 139_000)
			s.CompactPoints = append(s.CompactPoints, 167_000)
		}
		return s
	}
	rep := replay.Report{Sessions: []replay.Session{
		mk("aaaaaaaa-1", "-home-you-cheap", 1, "", 0),
		mk("bbbbbbbb-2", "-home-you-shop", 5, "", 0),
		mk("cccccccc-3", "-home-you-shop", 4, "chain-x", 2),
		mk("dddddddd-4", "-home-you-shop", 3, "chain-x", 1),
		mk("eeeeeeee-5", "-home-you-shop", 2, "", 0),
		mk("ffffffff-6", "-home-you-shop", 1, "", 0),
		mk("99999999-7", "-home-you-shop", 0.5, "", 0),
	}}
	var b bytes.Buffer
	if err := report.Render(&b, rep); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	order := regexp.MustCompile(`data-project="([^"]+)"|data-session="([^"]+)"`).FindAllStringSubmatch(page, -1)
	var got []string
	for _, m := range order {
		got = append(got, m[1]+m[2])
	}
	// The chain ($7) comes first, its sessions in their places (4 then 3).
	want := "-home-you-shop dddddddd-4 cccccccc-3 bbbbbbbb-2 eeeeeeee-5 ffffffff-6 99999999-7 -home-you-cheap aaaaaaaa-1"
	if strings.Join(got, " ") != want {
		t.Errorf("order:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if !strings.Contains(page, "<h3>chain chain-x: 2 sessions</h3>") {
		t.Error("the chain is not one entry")
	}
	if n := strings.Count(page, `<figure class="chart"><svg`); n != report.ChartsPerProject+1 {
		t.Errorf("%d charts, want %d: three of the shop's, one of the other", n, report.ChartsPerProject+1)
	}
	if !strings.Contains(page, `<details class="more"><summary>2 more, not charted</summary>`) {
		t.Error("the shop's last two entries are not listed in a <details>")
	}
	// Each chart carries its own key, above its plot.
	for i, chart := range strings.Split(page, `<svg class="chart"`)[1:] {
		chart = chart[:strings.Index(chart, "</figure>")]
		for _, name := range []string{"reading", "warn line", "pause line", "compaction point", "compaction", "microcompaction", "relay (chain)", "warn notice", "pause notice"} {
			if !strings.Contains(chart, ">"+name+"</text></g>") {
				t.Errorf("chart %d: the key lacks %s", i, name)
			}
		}
		if strings.Index(chart, `<g class="key"`) > strings.Index(chart, "<path") {
			t.Errorf("chart %d: the key is not above the plot", i)
		}
	}
}

// TestWords: one of a thing is counted in the singular, nothing is said
// of things that did not happen (no cold stop, no session compacted
// before a notice), a project is named by its folder, from ~ under the
// home, and each chart says what set its lines.
func TestWords(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	cost := 3.5
	s := replay.Session{SessionID: "aaaaaaaa-1", Project: home + "/shop", CostUSD: &cost, Responses: 12, Peak: 150_000,
		Lines: &lines.Lines{
			Warn:  lines.Line{Tokens: 94_000, SetBy: lines.Priced, SavingUSD: 0.2},
			Pause: lines.Line{Tokens: 139_000, SetBy: lines.Window},
		}}
	for i := range 12 {
		s.Readings = append(s.Readings, int64(40_000+i*10_000))
		s.WarnLines = append(s.WarnLines, 94_000)
		s.PauseLines = append(s.PauseLines, 139_000)
		s.CompactPoints = append(s.CompactPoints, 167_000)
	}
	rep := replay.Report{Sessions: []replay.Session{s}}
	rep.Totals = replay.Total(rep.Sessions)
	rep.Totals.Cold = replay.ColdTotals{Rewrites: 1, RewriteSessions: 1, RewriteUSD: 0.4}
	var b bytes.Buffer
	if err := report.Render(&b, rep); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`This <span class="n">1</span> session cost`,
		"1 re-write of more than 50k tokens in 1 session cost $0.40",
		"<h2>~/shop</h2>",
		"warn line 94k (priced: where relaying saves enough to warn); pause line 139k (set by the window: Claude Code compacts it at ~167k).",
		"measured pace, so they move.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, wrong := range []string{"1 sessions", "1 responses", "1 re-writes", "held back 0", "0 sessions compacted", " 0 prompts"} {
		if strings.Contains(page, wrong) {
			t.Errorf("the page says %q", wrong)
		}
	}
}

package report_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/report"
)

func ptr(v float64) *float64 { return &v }

// TestAnswersWhatItWouldHaveSaved: with what is known of the sessions,
// the page opens with the dollars (spent, and saved by relaying at the
// pauses, forecast and measured), names each session by its date, branch
// and opening prompt, collapses its notices, draws its window's
// compaction point, and lists the short sessions without a chart.
func TestAnswersWhatItWouldHaveSaved(t *testing.T) {
	rep := sampleReplay(t)
	// One pause in the climbing session, with both a forecast and what
	// carrying on really cost: saving 0.80 forecast, carrying on forecast
	// 4.00 but really 4.50, so relaying would really have saved 1.30.
	var climbing *replay.Session
	for i := range rep.Sessions {
		if rep.Sessions[i].SessionID == "a1" {
			climbing = &rep.Sessions[i]
		}
	}
	if climbing == nil {
		t.Fatal("no session a1")
	}
	climbing.Notices = append(climbing.Notices, replay.Notice{Level: "pause", Reading: 410_000, Line: 400_000, SetBy: "cap", Response: 36})
	climbing.Pauses = []replay.Pause{{Response: 36, Reading: 410_000, SavingUSD: ptr(0.80), PredictedCarryOnUSD: ptr(4.00), ActualCarryOnUSD: ptr(4.50)}}
	about := map[string]replay.About{}
	for _, s := range rep.Sessions {
		about[s.Path] = replay.About{Date: "2026-03-0" + s.SessionID[1:], Branch: "feat/" + s.SessionID,
			OpeningPrompt: "fix the " + s.SessionID + " parser", SpentUSD: ptr(10), WindowTokens: 1_000_000, CompactsAt: 967_000}
	}
	about[climbing.Path] = replay.About{Date: "2026-03-01", Branch: "main", OpeningPrompt: "carry out plans/x.md",
		SpentUSD: ptr(12.5), WindowTokens: 200_000, CompactsAt: 167_000}
	var b bytes.Buffer
	if err := report.RenderInput(&b, replay.ReportInput{Report: rep, About: about}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		// The answer first: 12.50 + 10 + 10 + 10 spent over four sessions.
		"cost <strong>$42.50</strong> at API rates",
		`<td id="spent">$42.50 over 4 sessions</td>`,
		`<td id="saved">$0.80 forecast over 1 pauses; $1.30 by what carrying on really cost at 1 of them</td>`,
		// The session by its ledger facts, its saving, notices collapsed.
		"<h3>2026-03-01 · main · “carry out plans/x.md”</h3>",
		"cost $12.50 · 40 responses",
		"Relaying at its pause was forecast to save $0.80 over the next 100k tokens; by what carrying on really cost, to save $1.30.",
		"<details><summary>",
		"compacts here",
		// d4 has one response: a row of the short sessions, no chart.
		`<tr class="short-session" data-session="d4"><td>2026-03-04 · feat/d4 · “fix the d4 parser”</td>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if regexp.MustCompile(`<section class="session" data-session="d4">`).MatchString(page) {
		t.Error("the one-response session is charted")
	}
	// A 1M window's compaction point is far above a session that stayed
	// low: drawn only where it is near (a1 is the only one on 200k).
	if n := strings.Count(page, "compacts here"); n != 1 {
		t.Errorf("%d charts draw the compaction point, want 1 (the 200k window's)", n)
	}
	// Without about, nothing of the dollars is made up.
	b.Reset()
	if err := report.Render(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "not known (no session priced)") {
		t.Error("with nothing known of the sessions the page still states a spend")
	}
}

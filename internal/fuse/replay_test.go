package fuse

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/tuning"
)

// timed is response() at second s of the hour, with a Bash call.
func timed(id string, usd float64, s int, side bool, cmd string) string {
	r := response(id, usd, side)
	r = strings.Replace(r, stamp0, fmt.Sprintf("2026-12-01T10:00:%02d.000Z", s), 1)
	if cmd != "" {
		r = strings.Replace(r, `"model":`, `"content":[{"type":"tool_use","id":"tu_`+id+`","name":"Bash","input":{"command":"`+cmd+`"}}],"model":`, 1)
	}
	return r
}

// TestReplaySession: a $5 cap warns after the response that passed $4 and
// halts after the one that passed $5, a subagent's responses counting in
// time order and once; three identical calls in a row are the loop.
func TestReplaySession(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "s.jsonl")
	os.WriteFile(main, []byte(
		timed("m0", 1, 0, false, "echo a")+
			timed("m1", 1, 10, false, "make")+
			timed("m2", 1, 20, false, "make")+
			timed("m3", 1, 40, false, "make")+
			timed("m4", 1, 50, false, "")), 0o644)
	subs := filepath.Join(dir, "s", "subagents")
	os.MkdirAll(subs, 0o755)
	sub := filepath.Join(subs, "agent-a.jsonl")
	os.WriteFile(sub, []byte(timed("a0", 1.5, 30, true, "")), 0o644)
	o := ReplaySession(main, []string{sub}, tuning.Amount{USD: 5}, 3, 0, pricer(t))
	// In time: m0 1, m1 2, m2 3, a0 4.5 (after own response 2), m3 5.5.
	if o.Warn == nil || o.Warn.Response != 2 || !near(o.Warn.SpentUSD, 4.5) {
		t.Errorf("warn %+v, want after response 2 at $4.50", o.Warn)
	}
	if o.Halt == nil || o.Halt.Response != 3 || !near(o.Halt.SpentUSD, 5.5) {
		t.Errorf("halt %+v, want after response 3 at $5.50", o.Halt)
	}
	if o.Loop == nil || o.Loop.Response != 3 || o.Loop.Call != "Bash: make" {
		t.Errorf("loop %+v, want at response 3 on Bash: make", o.Loop)
	}
	if !near(o.Spent.USD, 6.5) || o.Spent.Responses != 6 {
		t.Errorf("spent %+v, want $6.50 over 6 responses", o.Spent)
	}
	if got := o.Describe(); got != "warn@2 $4.50, halt@3 $5.50, loop@3 Bash: make ×3" {
		t.Errorf("Describe = %q", got)
	}
	sum := Summarize(tuning.Amount{USD: 5}, 3, 0, []*Outcome{&o, {Cap: "$5.00"}})
	if sum.Sessions != 2 || sum.Halted != 1 || sum.Loops != 1 || !near(sum.SpentAfterHaltUSD, 1) {
		t.Errorf("summary %+v", sum)
	}
}

// TestReplayBurn: the burn rate warns once a spell, when the spend of the
// five minutes before a response reaches the line, and again only after
// the rate fell back under it, as the hook reads its tally's minutes.
func TestReplayBurn(t *testing.T) {
	at := func(id string, usd float64, minute int) string {
		return strings.Replace(response(id, usd, false), stamp0, fmt.Sprintf("2026-12-01T10:%02d:30.000Z", minute), 1)
	}
	main := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(main, []byte(at("m0", 1, 0)+at("m1", 2, 1)+at("m2", 2, 2)+at("m3", 0.5, 10)+at("m4", 4, 11)+at("m5", 1, 12)), 0o644)
	o := ReplaySession(main, nil, tuning.Amount{}, 0, 4, pricer(t))
	if len(o.Burns) != 2 || o.Burns[0].Response != 2 || !near(o.Burns[0].WindowUSD, 5) ||
		o.Burns[1].Response != 4 || !near(o.Burns[1].WindowUSD, 4.5) {
		t.Fatalf("burns %+v, want after response 2 ($5.00 in 5 minutes) and 4 ($4.50)", o.Burns)
	}
	if got := o.Describe(); got != "burn@2 $5.00/5m, burn@4 $4.50/5m" {
		t.Errorf("Describe = %q", got)
	}
	if o := ReplaySession(main, nil, tuning.Amount{}, 0, 6, pricer(t)); len(o.Burns) != 0 {
		t.Errorf("at $6 per 5 minutes: burns %+v, want none", o.Burns)
	}
	sum := Summarize(tuning.Amount{}, 0, 4, []*Outcome{&o, {}})
	if sum.Burned != 1 || sum.Burns != 2 || !strings.Contains(sum.Describe(), "1 would have had a burn warning at $4.00 per 5 minutes (2 warnings)") {
		t.Errorf("summary %+v: %s", sum, sum.Describe())
	}
}

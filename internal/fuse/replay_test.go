package fuse

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/spend"
	"github.com/muthur/context-budget/internal/transcript"
)

func tablePricer(t *testing.T) spend.Pricer {
	tab, err := prices.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return func(model string, u *transcript.Usage) (float64, bool) {
		r, ok := tab.Lookup(model, u.Speed)
		if !ok {
			return 0, false
		}
		return r.Cost(u), true
	}
}

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
	o := ReplaySession(main, []string{sub}, spend.Amount{USD: 5}, 3, tablePricer(t))
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
	sum := Summarize(spend.Amount{USD: 5}, 3, []*Outcome{&o, {Cap: "$5.00"}})
	if sum.Sessions != 2 || sum.Halted != 1 || sum.Loops != 1 || !near(sum.SpentAfterHaltUSD, 1) {
		t.Errorf("summary %+v", sum)
	}
}

func near(a, b float64) bool { return a-b < 1e-6 && b-a < 1e-6 }

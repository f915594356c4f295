package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// budgetStatus runs context-budget budget status --json for a session of
// a run, from the user's shell (the run's HOME, no Claude Code session in
// the environment), and returns its text and its spend.
func budgetStatus(t *testing.T, s *Session, session string) (text string, usd float64, halts int) {
	t.Helper()
	run := func(args ...string) string {
		cmd := exec.Command(hookBin, append([]string{"budget", "status", "--project", s.Project, "--session", session}, args...)...)
		cmd.Dir = s.Project
		cmd.Env = []string{"HOME=" + s.Home, "PATH=" + os.Getenv("PATH")}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("budget status: %v\n%s", err, out)
		}
		return string(out)
	}
	var st struct {
		Spent struct {
			USD float64 `json:"usd"`
		} `json:"spent"`
		Halts []json.RawMessage `json:"halts"`
	}
	if err := json.Unmarshal([]byte(run("--json")), &st); err != nil {
		t.Fatalf("budget status --json: %v", err)
	}
	return run(), st.Spent.USD, len(st.Halts)
}

// TestFuseOvershoot: armed at a small cap, a model that would keep
// calling tools after the deny. The run ends at the first denied call:
// Claude Code makes no request after it and reports only
// terminal_reason "hook_stopped" (exit 0); the denied call never ran; the
// spend is at most the cap and two responses (the one in flight, and one
// more when the call's own record lands late); budget status for the
// session names the cap and the halt.
func TestFuseOvershoot(t *testing.T) {
	const capUSD, perTurn = 0.20, 0.0395 // a turn at 50k, at claude-opus-4-6's rates
	var turns []Turn
	for i := range 30 {
		turns = append(turns, turn(50_000, bash(fmt.Sprintf("touch step-%02d", i))))
	}
	sc := Script{Main: append(turns, turn(50_000, text("Done.")))}
	s := runClaude(t, sc, Options{Env: map[string]string{"MUTHUR_CONTEXT_BUDGET_SPEND": "$0.20"},
		Args: []string{"--output-format", "json"}, Prepare: blockingStop})
	var res struct {
		SessionID      string `json:"session_id"`
		TerminalReason string `json:"terminal_reason"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(s.Stdout)), &res); err != nil {
		t.Fatalf("claude's result: %v\n%s", err, s.Stdout)
	}
	if s.Err != nil || res.TerminalReason != "hook_stopped" {
		t.Errorf("claude ended %v with terminal_reason %q, want exit 0 and hook_stopped", s.Err, res.TerminalReason)
	}
	// The calls that ran left their step; the first that did not is the
	// denied one, and the run made no request after it.
	calls := s.Calls()
	ran := 0
	for i := range calls {
		if _, err := os.Stat(filepath.Join(s.Project, fmt.Sprintf("step-%02d", i))); err == nil {
			ran = i + 1
		}
	}
	if ran >= len(calls) {
		t.Fatalf("every one of the %d calls ran: nothing was denied\n%s", len(calls), s.Timeline())
	}
	if ran < 4 {
		t.Fatalf("the fuse denied call %d, at $%.2f of a $%.2f cap\n%s", ran, float64(ran+1)*perTurn, capUSD, s.Timeline())
	}
	if n := s.Count(KindMain); n != ran+1 {
		t.Errorf("%d main requests, want %d: the run did not end at the denied call %d\n%s", n, ran+1, ran, s.Timeline())
	}
	text, spent, halts := budgetStatus(t, s, res.SessionID)
	if spent > capUSD+2*perTurn+0.001 {
		t.Errorf("spent $%.4f, more than the $%.2f cap and two responses ($%.4f)", spent, capUSD, 2*perTurn)
	}
	if halts != 1 {
		t.Errorf("%d halts recorded, want 1:\n%s", halts, text)
	}
	says(t, text, "session cap $0.20 (MUTHUR_CONTEXT_BUDGET_SPEND)", "holds", "halted ", "(cap, $0.20)")
	t.Logf("denied call %d of %d; spent $%.4f against the $%.2f cap", ran, len(calls), spent, capUSD)
}

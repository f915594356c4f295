package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/chain"
)

// TestChainHandsOverThenFinishes: the first session plays the relay
// skill, the runner starts its successor with the take line, and the
// successor finishes: two sessions, exit 0.
func TestChainHandsOverThenFinishes(t *testing.T) {
	sc := Script{Main: append(append([]Turn{workTurn(30_000, "one")}, handOverTurns(40_000, "one")...),
		turn(25_000, text("Picked up from the hand-over; the work is done.")))}
	run := runChain(t, sc, chainOptions{})
	sum := run.Summary
	if run.Code != 0 || sum.Stopped != "finished" || len(sum.Sessions) != 2 {
		t.Fatalf("exit %d, stopped %q, %d sessions; want 0, finished, 2\n%s", run.Code, sum.Stopped, len(sum.Sessions), run.Timeline())
	}
	if !sum.Sessions[0].HandedOver || sum.Sessions[1].HandedOver || sum.Sessions[1].Ended != "finished" {
		t.Errorf("sessions: %+v", sum.Sessions)
	}
	if p := sum.Sessions[1].Prompt; p != "/relay take main" {
		t.Errorf("the successor's prompt is %q, want the take line", p)
	}
	if first := requestOfTurn(t, run.Session, 0); !strings.Contains(first, "Run the e2e script.") {
		t.Errorf("the first session's first request lacks the prompt")
	}
	// The successor's first request is the take line: the skill's
	// command with "take main", and not the first prompt.
	successor := requestOfTurn(t, run.Session, 3)
	if !strings.Contains(successor, takeLine) || strings.Contains(successor, "Run the e2e script.") {
		t.Errorf("the successor's first request does not open with the take line")
	}
	checkChainRecorded(t, run)
	want := []string{"ledger: row of " + sum.Sessions[1].SessionID, "ledger: row of " + sum.Sessions[0].SessionID,
		"Hand over one", "Work one", "init"}
	if got := subjects(t, run.Project); !slices.Equal(got, want) {
		t.Errorf("commits %q, want %q", got, want)
	}
	if sum.CostUSD <= 0 || sum.CostUSD != roundUSD(sum.Sessions[0].CostUSD+sum.Sessions[1].CostUSD) {
		t.Errorf("the chain cost %v, its sessions %v and %v", sum.CostUSD, sum.Sessions[0].CostUSD, sum.Sessions[1].CostUSD)
	}
}

// roundUSD rounds as the runner's JSON does.
func roundUSD(v float64) float64 {
	return float64(int64(v*1e6+0.5)) / 1e6
}

// TestChainMaxRelays: sessions that always hand over, with progress:
// --max-relays 2 gives three sessions and exit 3, and no fourth starts.
func TestChainMaxRelays(t *testing.T) {
	var main []Turn
	for _, tag := range []string{"one", "two", "three", "four"} {
		main = append(append(main, workTurn(30_000, tag)), handOverTurns(40_000, tag)...)
	}
	run := runChain(t, Script{Main: main}, chainOptions{Flags: []string{"--max-relays", "2"}})
	sum := run.Summary
	if run.Code != 3 || sum.Stopped != "max-relays" || len(sum.Sessions) != 3 {
		t.Fatalf("exit %d, stopped %q, %d sessions; want 3, max-relays, 3\n%s", run.Code, sum.Stopped, len(sum.Sessions), run.Timeline())
	}
	for i, s := range sum.Sessions {
		if !s.HandedOver {
			t.Errorf("session %d did not hand over: %+v", i+1, s)
		}
	}
	if n := run.Count(KindMain); n != 9 {
		t.Errorf("%d main requests, want 9: three sessions of three turns", n)
	}
	checkChainRecorded(t, run)
}

// TestChainBudgetSmallerThanASession: a chain budget smaller than what
// one session spends ends the chain in that session, by Claude Code's
// own budget or the spend fuse's, and no successor starts; the spend
// passes the budget by one response at most. Each response here costs
// about $0.0645 (a 100k context at claude-opus-4-6's rates).
func TestChainBudgetSmallerThanASession(t *testing.T) {
	sc := Script{Main: append(bashTurns(8, 100_000, func(i int) string { return "echo step " + string(rune('a'+i)) }),
		handOverTurns(100_000, "one")...)}
	run := runChain(t, sc, chainOptions{Flags: []string{"--max-usd", "$0.10"}})
	sum := run.Summary
	if (run.Code != 3 && run.Code != 4) || len(sum.Sessions) != 1 {
		t.Fatalf("exit %d, stopped %q, %d sessions; want 3 or 4 and one session\n%s", run.Code, sum.Stopped, len(sum.Sessions), run.Timeline())
	}
	const response = 0.0645
	if sum.CostUSD > 0.10+response {
		t.Errorf("the chain spent $%.4f of its $0.10, more than one response past it", sum.CostUSD)
	}
	c := run.Calls[0]
	if got := c.arg("--max-budget-usd"); got != "0.1000" {
		t.Errorf("--max-budget-usd %q, want 0.1000", got)
	}
	if got := c.Env["MUTHUR_CONTEXT_BUDGET_SPEND"]; got != "$0.1000" {
		t.Errorf("MUTHUR_CONTEXT_BUDGET_SPEND=%q, want $0.1000", got)
	}
	if received(run.Session, "take main") {
		t.Error("a successor started")
	}
	checkChainRecorded(t, run)
}

// TestChainNoProgress: after a session that worked and handed over, two
// successors that only write the summary end the chain: exit 5.
func TestChainNoProgress(t *testing.T) {
	main := append([]Turn{workTurn(30_000, "one")}, handOverTurns(40_000, "one")...)
	main = append(append(main, handOverTurns(30_000, "two")...), handOverTurns(30_000, "three")...)
	main = append(main, workTurn(30_000, "four"))
	run := runChain(t, Script{Main: main}, chainOptions{})
	sum := run.Summary
	if run.Code != 5 || sum.Stopped != "no-progress" || len(sum.Sessions) != 3 {
		t.Fatalf("exit %d, stopped %q, %d sessions; want 5, no-progress, 3\n%s", run.Code, sum.Stopped, len(sum.Sessions), run.Timeline())
	}
	if n := run.Count(KindMain); n != 7 {
		t.Errorf("%d main requests, want 7", n)
	}
	checkChainRecorded(t, run)
}

// TestChainManualPause: a session that pauses in manual mode offers
// /relay and ends its turn without handing over: the chain waits for a
// person, exit 6.
func TestChainManualPause(t *testing.T) {
	sc := Script{Main: []Turn{
		turn(10_000, bash("echo 1")),
		crossing(turn(130_000, bash("echo 2"))),
		turn(135_000, text("Paused for the context budget: say /relay and I will hand over.")),
		workTurn(30_000, "never"),
	}}
	run := runChain(t, sc, chainOptions{Env: with(fixedLines(), "MUTHUR_MANUAL_CONTEXT_BUDGET_RELAY", "1")})
	sum := run.Summary
	if run.Code != 6 || sum.Stopped != "paused" || len(sum.Sessions) != 1 {
		t.Fatalf("exit %d, stopped %q, %d sessions; want 6, paused, 1\n%s", run.Code, sum.Stopped, len(sum.Sessions), run.Timeline())
	}
	says(t, onlyNotice(t, run.Session, "pause"), "offering /relay")
	checkChainRecorded(t, run)
}

// TestChainHalted: the spend fuse halts a session (its cap from the
// settings' env, no chain budget): Claude Code exits 0 and says only
// that a hook stopped it; the runner ends the chain, exit 4, with what
// the fuse recorded.
func TestChainHalted(t *testing.T) {
	sc := Script{Main: append(bashTurns(8, 100_000, func(i int) string { return "echo step " + string(rune('a'+i)) }),
		handOverTurns(100_000, "one")...)}
	run := runChain(t, sc, chainOptions{Env: map[string]string{"MUTHUR_CONTEXT_BUDGET_SPEND": "$0.20"}})
	sum := run.Summary
	if run.Code != 4 || sum.Stopped != "halted" || len(sum.Sessions) != 1 {
		t.Fatalf("exit %d, stopped %q, %d sessions; want 4, halted, 1\n%s", run.Code, sum.Stopped, len(sum.Sessions), run.Timeline())
	}
	says(t, sum.Sessions[0].Note, "the spend fuse", "of its $0.20 cap (MUTHUR_CONTEXT_BUDGET_SPEND)")
	checkChainRecorded(t, run)
}

// TestChainInterrupt: SIGINT while a session runs a long tool call
// reaches the session, which ends there: the call's result never reaches
// the model; the runner commits its row, exits 130 and starts no
// successor; the next command it prints starts the successor from the
// branch as the chain's next place.
func TestChainInterrupt(t *testing.T) {
	sc := Script{Main: []Turn{turn(20_000, bash("echo working && sleep 60 && echo worked")),
		done("Picked up from the branch; the work is done.")}}
	run := runChain(t, sc, chainOptions{During: func(t *testing.T, cmd *exec.Cmd, m *Mock) {
		deadline := time.Now().Add(time.Minute)
		for !answered(m, 0) {
			if time.Now().After(deadline) {
				t.Fatal("the session never asked for its first turn")
			}
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(time.Second) // the Bash call is under way
		cmd.Process.Signal(syscall.SIGINT)
	}})
	sum := run.Summary
	if run.Code != 130 || sum.Stopped != "interrupted" || len(sum.Sessions) != 1 {
		t.Fatalf("exit %d, stopped %q, %d sessions; want 130, interrupted, 1\n%s", run.Code, sum.Stopped, len(sum.Sessions), run.Timeline())
	}
	if answered(run.Mock, 1) || received(run.Session, "take main") {
		t.Errorf("the session carried on, or a successor started, after SIGINT\n%s", run.Timeline())
	}
	// Its Stop hook did not run: the runner wrote its row and committed
	// it, alone; the branch is otherwise as the session left it.
	checkChainRecorded(t, run)
	if got := subjects(t, run.Project); !slices.Equal(got, []string{"ledger: row of " + sum.Sessions[0].SessionID, "init"}) {
		t.Errorf("commits after SIGINT: %q", got)
	}
	if !slices.Contains(sum.Next, "/relay take main") || slices.Contains(sum.Next, "--resume") {
		t.Fatalf("next %q, want a successor from the branch", sum.Next)
	}
	next := run.carryOn(t, sum.Next, nil)
	if s := next.Summary; next.Code != 0 || s.Chain != sum.Chain || len(s.Sessions) != 1 || s.Sessions[0].Place != 2 {
		t.Fatalf("the next run: exit %d, %+v\n%s", next.Code, s, next.Timeline())
	}
	checkChainRecorded(t, next)
}

// answered reports whether the mock answered with turn i of its script.
func answered(m *Mock, i int) bool {
	for _, r := range m.Requests() {
		if r.Kind == KindMain && r.Turn == i {
			return true
		}
	}
	return false
}

// TestChainCleansMarkers: a runner started with Claude Code's markers of
// a parent session in its environment (as from a Bash tool of a running
// session) starts its sessions without them, each with a transcript of
// its own, keeping every other variable: the user's own CLAUDE_CODE_*
// settings, and anything else.
func TestChainCleansMarkers(t *testing.T) {
	parent := []string{
		"CLAUDECODE=1", "CLAUDE_CODE_ENTRYPOINT=cli", "CLAUDE_CODE_SESSION_ID=0f5e3c1a-2b4d-4e6f-8a9b-0c1d2e3f4a5b",
		"CLAUDE_CODE_CHILD_SESSION=1", "CLAUDE_CODE_MESSAGING_SOCKET=/nonexistent/cc.sock", "CLAUDE_CODE_MESSAGING_TOKEN=parent-token",
		"CLAUDE_CODE_CHILD_NOTES_DIR=/nonexistent/started", "CLAUDE_CODE_SESSION_ATTENDED=1", "CLAUDE_CODE_EXECPATH=/nonexistent/claude",
		"CLAUDE_PID=1", "CLAUDE_EFFORT=low", "AI_AGENT=claude-code_2-1-332_agent",
		"CONTEXT_BUDGET_CHAIN=parent-chain", "CONTEXT_BUDGET_CHAIN_PLACE=7",
		"GIT_EDITOR=true", "E2E_USER_SETTING=kept",
	}
	sc := Script{Main: append(append([]Turn{workTurn(30_000, "one")}, handOverTurns(40_000, "one")...),
		turn(25_000, text("Picked up; done.")))}
	run := runChain(t, sc, chainOptions{Environ: parent})
	sum := run.Summary
	if run.Code != 0 || len(sum.Sessions) != 2 {
		t.Fatalf("exit %d, %d sessions; want 0, 2\n%s", run.Code, len(sum.Sessions), run.Timeline())
	}
	for i, c := range run.Calls {
		for _, m := range chain.Markers {
			if v, ok := c.Env[m]; ok {
				t.Errorf("session %d started with %s=%s", i+1, m, v)
			}
		}
		for k, want := range map[string]string{"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "GIT_EDITOR": "true",
			"E2E_USER_SETTING": "kept", "CONTEXT_BUDGET_CHAIN": sum.Chain} {
			if got := c.Env[k]; got != want {
				t.Errorf("session %d: %s=%q, want %q", i+1, k, got, want)
			}
		}
	}
	for i, s := range sum.Sessions {
		found, _ := filepath.Glob(filepath.Join(run.Home, ".claude", "projects", "*", s.SessionID+".jsonl"))
		if len(found) != 1 {
			t.Errorf("session %d (%s) has no transcript", i+1, s.SessionID)
		}
	}
	checkChainRecorded(t, run)
}

// TestChainMarkersMeasured pins chain.Markers to the CLI: the variables
// Claude Code adds to a Bash tool's environment, beyond what it was
// started with, are the markers, the shell's own and the settings it
// gives its tools, which name no session and which the runner keeps.
func TestChainMarkersMeasured(t *testing.T) {
	s := runClaude(t, Script{Main: []Turn{turn(10_000, bash("env")), turn(11_000, text("Done."))}}, Options{})
	calls := s.Calls()
	if s.Err != nil || len(calls) != 1 {
		t.Fatalf("err %v, %d calls", s.Err, len(calls))
	}
	launched := map[string]bool{"HOME": true, "PATH": true, "TMPDIR": true, "IS_SANDBOX": true, "ANTHROPIC_BASE_URL": true,
		"ANTHROPIC_API_KEY": true, "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": true}
	kept := map[string]bool{"PWD": true, "SHLVL": true, "SHELL": true, "_": true, "OLDPWD": true,
		"GIT_EDITOR": true, "COREPACK_ENABLE_AUTO_PIN": true, "NoDefaultCurrentDirectoryInExePath": true}
	var added []string
	for _, line := range strings.Split(results(s)[calls[0].ID], "\n") {
		name, _, ok := strings.Cut(line, "=")
		if !ok || name == "" || strings.ContainsAny(name, " <>") || launched[name] || kept[name] {
			continue
		}
		added = append(added, name)
	}
	slices.Sort(added)
	want := slices.Sorted(slices.Values(chain.Markers))
	if !slices.Equal(added, want) {
		t.Errorf("Claude Code %s marks its tools' environment with %q;\nchain.Markers lists %q", ClaudeVersion, added, want)
	}
}

// climbTurns are a session's work after it acted: Bash calls that each
// add step tokens of context, from from to to, then a commit.
func climbTurns(from, to, step int64, tag string) []Turn {
	var ts []Turn
	for c := from; c < to; c += step {
		ts = append(ts, turn(c, bash(fmt.Sprintf("echo %s %d >> work.txt", tag, c))))
	}
	return append(ts, turn(to, bash(fmt.Sprintf("git add work.txt && git commit -qm 'Work %s'", tag))))
}

// TestChainThreeSessions: a chain of three sessions that each work as a
// real one does (act at once or after re-orienting, then grow about 2.5k
// tokens a request, the design's default pace) and relay past 150k; the
// third finishes. The table gives each session and, beside the chain's
// spend, the forecast of one session carrying on, which here costs
// more: it would carry the first session's 150k through all the work.
func TestChainThreeSessions(t *testing.T) {
	project := filepath.Join(t.TempDir(), "project")
	write := func(name string) Block {
		return Block{Tool: "Write", Input: map[string]any{"file_path": filepath.Join(project, name), "content": "work\n"}}
	}
	main := []Turn{turn(20_000, write("one.txt"))}
	main = append(append(main, climbTurns(22_500, 150_000, 2_500, "one")...), handOverTurns(151_000, "one")...)
	for _, tag := range []string{"two", "three"} {
		main = append(main, turn(25_000, bash("cat .claude/context-budget/relay/*.md")), turn(35_000, write(tag+".txt")))
		main = append(main, climbTurns(37_500, 150_000, 2_500, tag)...)
		if tag == "two" {
			main = append(main, handOverTurns(151_000, tag)...)
		}
	}
	main = append(main, turn(151_000, text("Picked up from the hand-over; the work is done.")))
	run := runChain(t, Script{Main: main}, chainOptions{Project: project, Text: true,
		Prompt: "Carry out plan.md", Flags: []string{"--max-usd", "20"}})
	if run.Code != 0 {
		t.Fatalf("exit %d, want 0\n%s", run.Code, run.Timeline())
	}
	out := run.Stdout
	says(t, out, "stopped: finished (exit 0)", "by the cost model's forecast (not measured)")
	rows := ledgerRows(t, project)
	if len(rows) != 3 {
		t.Fatalf("%d ledger rows, want 3", len(rows))
	}
	var chainUSD float64
	for _, r := range rows {
		chainUSD += r.Total.CostUSD
		if r.Chain == "" || r.Place < 1 || r.Place > 3 {
			t.Errorf("row %s: chain %q place %d", r.SessionID, r.Chain, r.Place)
		}
		if r.Place > 1 && (!r.Orientation.Measured() || r.Orientation.ContextTokens != 35_000) {
			t.Errorf("session %d's orientation %+v: it acted at 35k", r.Place, r.Orientation)
		}
	}
	m := forecastRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no forecast in the table:\n%s", out)
	}
	forecast, _ := strconv.ParseFloat(m[1], 64)
	if forecast <= chainUSD {
		t.Errorf("one session carrying on from 150k through 225k more forecast at $%.2f, no more than the chain's $%.2f", forecast, chainUSD)
	}
}

var forecastRE = regexp.MustCompile(`would have cost about \$([0-9.]+) by the cost model's forecast`)

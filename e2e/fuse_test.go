package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The spend fuse with the real CLI. A turn at 100k costs about $0.0645 at
// claude-opus-4-6's rates (6 input, 2,000 cache writes, 97,994 cache
// reads, 120 output), so four of them pass a $0.20 cap; a turn at 50k
// about $0.0395.

// results returns the text of every tool result the model was sent, by
// tool_use_id, and of those Claude Code wrote in the session's
// transcripts without sending them: a call denied with continue: false
// ends the run, so its result reaches no request.
func results(s *Session) map[string]string {
	out := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(s.Home, ".claude", "projects", "*", "*.jsonl"))
	subs, _ := filepath.Glob(filepath.Join(s.Home, ".claude", "projects", "*", "*", "subagents", "*.jsonl"))
	for _, name := range append(files, subs...) {
		data, _ := os.ReadFile(name)
		for _, line := range strings.Split(string(data), "\n") {
			var rec struct {
				Type    string `json:"type"`
				Message struct {
					Content json.RawMessage `json:"content"`
				} `json:"message"`
			}
			if json.Unmarshal([]byte(line), &rec) != nil || rec.Type != "user" {
				continue
			}
			for _, b := range blocks(rec.Message.Content) {
				if b.Type == "tool_result" {
					out[b.ToolUseID] = resultText(b.Content)
				}
			}
		}
	}
	for _, r := range s.Mock.Requests() {
		var mr messageRequest
		if r.Path != "/v1/messages" || json.Unmarshal(r.Body, &mr) != nil {
			continue
		}
		for _, msg := range mr.Messages {
			for _, b := range blocks(msg.Content) {
				if b.Type == "tool_result" {
					out[b.ToolUseID] = resultText(b.Content)
				}
			}
		}
	}
	return out
}

// received reports whether any request the mock received holds text.
func received(s *Session, text string) bool {
	for _, r := range s.Mock.Requests() {
		if strings.Contains(string(r.Body), text) {
			return true
		}
	}
	return false
}

// deniedFrom returns the index of the first call whose result carries the
// fuse's deny, checking that every later call of kind k is denied too, and
// -1 when none was.
func deniedFrom(t *testing.T, s *Session, k Kind, mark string) int {
	t.Helper()
	res := results(s)
	first := -1
	for i, c := range s.Calls() {
		if c.Kind != k {
			continue
		}
		denied := strings.Contains(res[c.ID], mark)
		if first < 0 && denied {
			first = i
		}
		if first >= 0 && !denied {
			t.Errorf("call %d (%s) ran after the fuse halted at call %d: %.200q", i, c.ID, first, res[c.ID])
		}
	}
	return first
}

func bashTurns(n int, reading int64, cmd func(i int) string) []Turn {
	var ts []Turn
	for i := range n {
		ts = append(ts, turn(reading, bash(cmd(i))))
	}
	return ts
}

// blockingStop adds a Stop hook of the scenario's own that always asks the
// model to carry on, as a /goal or an autonomous loop does: only the
// fuse's continue: false ends the run.
func blockingStop(s *Session) {
	name := filepath.Join(s.Home, ".claude", "settings.json")
	data, _ := os.ReadFile(name)
	var settings map[string]any
	json.Unmarshal(data, &settings)
	hooks := settings["hooks"].(map[string]any)
	stop, _ := hooks["Stop"].([]any)
	hooks["Stop"] = append(stop, map[string]any{"hooks": []any{map[string]any{
		"type": "command", "command": `echo '{"decision":"block","reason":"The goal is not met yet: keep going."}'`}}})
	data, _ = json.MarshalIndent(settings, "", "  ")
	os.WriteFile(name, data, 0o644)
}

func capScript() Script {
	return Script{Main: append(bashTurns(14, 50_000, func(i int) string { return "echo step " + string(rune('a'+i)) }),
		turn(50_000, text("Stopping here.")))}
}

// TestFuseCapDeniesAndStops: past a $0.40 cap from launch, the next tool
// call is denied with the reason the model reads, the 80% notice came
// first, and the run ends at that call, although another Stop hook asks
// it to carry on (the control run without the cap shows that hook does
// keep it going).
func TestFuseCapDeniesAndStops(t *testing.T) {
	sc := capScript()
	s := runClaude(t, sc, Options{Env: map[string]string{"MUTHUR_CONTEXT_BUDGET_SPEND": "$0.40"}, Prepare: blockingStop})
	first := deniedFrom(t, s, KindMain, "context-budget spend fuse")
	// Call i is made by response i+1; spend after response k is k×$0.0395:
	// responses 9 and 10 lie between 80% and the cap, so some call sees
	// one of them (the warning, however late the transcript), and
	// response 11 passes the cap, which the fuse sees at call 10, or at
	// call 11 when the record lands late: one response behind at most.
	if first < 10 || first > 11 {
		t.Fatalf("first denied call %d, want 10 or 11 (one response behind at most)\n%s", first, s.Timeline())
	}
	res := results(s)
	says(t, res[s.Calls()[first].ID], "of its $0.40 cap (MUTHUR_CONTEXT_BUDGET_SPEND)", "Every tool call is denied")
	if !received(s, "context-budget spend notice") {
		t.Errorf("the 80%% notice never reached the model")
	}
	if n := s.Count(KindMain); n != first+1 {
		t.Errorf("%d main requests, want %d: the run went on past the denied call %d", n, first+1, first)
	}
	control := runClaude(t, capScript(), Options{Prepare: blockingStop})
	if n := control.Count(KindMain); n <= len(sc.Main) {
		t.Errorf("control: %d main requests, want more than %d: the blocking Stop hook did not keep the run going, so the fuse's stop proves nothing", n, len(sc.Main))
	}
}

// TestFuseAgentCannotDisarm: while a cap holds, the agent's own budget
// disarm is denied; its budget status runs, in the session it names
// through CLAUDE_CODE_SESSION_ID.
func TestFuseAgentCannotDisarm(t *testing.T) {
	sc := Script{Main: []Turn{
		turn(20_000, bash(hookBin+" budget disarm")),
		turn(21_000, bash(hookBin+" budget status")),
		turn(22_000, text("Done.")),
	}}
	s := runClaude(t, sc, Options{Env: map[string]string{"MUTHUR_CONTEXT_BUDGET_SPEND": "$50"}})
	calls, res := s.Calls(), results(s)
	if len(calls) != 2 {
		t.Fatalf("%d calls, want 2\n%s", len(calls), s.Timeline())
	}
	says(t, res[calls[0].ID], "context-budget spend fuse", "run context-budget budget disarm", "the user's act")
	says(t, res[calls[1].ID], "session cap $50.00 (MUTHUR_CONTEXT_BUDGET_SPEND)")
	saysNot(t, res[calls[1].ID], "spend fuse: this call")
}

// TestFuseLoopHalts: with MUTHUR_CONTEXT_BUDGET_LOOP=5, five identical
// Bash calls run; the sixth is denied with the call named, how to lift
// the halt and how to turn it off, and the run ends there. Unset and with
// no cap, the same calls all run.
func TestFuseLoopHalts(t *testing.T) {
	script := func() Script {
		return Script{Main: append(bashTurns(6, 20_000, func(int) string { return "echo same" }),
			turn(20_000, bash("echo other")), turn(20_000, text("Done.")))}
	}
	s := runClaude(t, script(), Options{Env: map[string]string{"MUTHUR_CONTEXT_BUDGET_LOOP": "5"}})
	first := deniedFrom(t, s, KindMain, "context-budget loop fuse")
	if first != 5 {
		t.Fatalf("first denied call %d, want 5 (the sixth)\n%s", first, s.Timeline())
	}
	says(t, results(s)[s.Calls()[first].ID], "ran 5 times in a row (Bash: echo same)",
		"context-budget budget reset", "MUTHUR_CONTEXT_BUDGET_LOOP=0")
	if n := s.Count(KindMain); n != first+1 {
		t.Errorf("%d main requests, want %d: the run went on past the loop halt", n, first+1)
	}
	quiet := runClaude(t, script(), Options{})
	if d := deniedFrom(t, quiet, KindMain, "context-budget loop fuse"); d >= 0 {
		t.Errorf("unset and with no cap, call %d was halted as a loop\n%s", d, quiet.Timeline())
	}
}

// TestFuseSubagentSpendCounts: a subagent's spend counts toward the
// session's cap: the subagent's own later calls are denied, and so is the
// main turn's next call, though the main chain alone spent far less than
// the cap.
func TestFuseSubagentSpendCounts(t *testing.T) {
	sc := Script{
		Main: []Turn{
			turn(20_000, agent("Run the steps.")),
			turn(21_000, bash("echo after")),
			turn(22_000, text("Done.")),
		},
		Sub: append(bashTurns(6, 100_000, func(i int) string { return "echo sub " + string(rune('a'+i)) }),
			turn(100_000, text("Subagent done."))),
	}
	s := runClaude(t, sc, Options{Env: map[string]string{"MUTHUR_CONTEXT_BUDGET_SPEND": "$0.20"}})
	if s.Count(KindSubagent) == 0 {
		t.Fatalf("no subagent ran\n%s", s.Timeline())
	}
	if first := deniedFrom(t, s, KindSubagent, "context-budget spend fuse"); first < 0 {
		t.Errorf("no subagent call was denied\n%s", s.Timeline())
	}
	res := results(s)
	for _, c := range s.Calls() {
		if c.Kind == KindMain && c.Tool == "Bash" {
			says(t, res[c.ID], "context-budget spend fuse: this session has spent")
		}
	}
}

// TestFuseDayCapAcrossSessions: a project's daily cap counts the spend of
// an earlier session of the project: the second session, which alone
// spends less than the cap, is denied by its second call.
func TestFuseDayCapAcrossSessions(t *testing.T) {
	env := map[string]string{"MUTHUR_CONTEXT_BUDGET_SPEND_DAY": "$0.30"}
	project := filepath.Join(t.TempDir(), "project")
	first := Script{Main: append(bashTurns(4, 100_000, func(i int) string { return "echo one " + string(rune('a'+i)) }),
		turn(20_000, text("Done.")))}
	s1 := runClaude(t, first, Options{Env: env, Project: project})
	if d := deniedFrom(t, s1, KindMain, "context-budget spend fuse"); d >= 0 {
		t.Fatalf("the first session ($0.26 of $0.30) was denied at call %d\n%s", d, s1.Timeline())
	}
	second := Script{Main: append(bashTurns(3, 100_000, func(i int) string { return "echo two " + string(rune('a'+i)) }),
		turn(20_000, text("Done.")))}
	s2 := runClaude(t, second, Options{Env: env, Project: project})
	d := deniedFrom(t, s2, KindMain, "context-budget spend fuse")
	if d < 0 || d > 1 {
		t.Fatalf("the second session's first denied call is %d, want 0 or 1\n%s", d, s2.Timeline())
	}
	says(t, results(s2)[s2.Calls()[d].ID], "this project has spent", "today (UTC) of its $0.30 daily cap (MUTHUR_CONTEXT_BUDGET_SPEND_DAY)")
}

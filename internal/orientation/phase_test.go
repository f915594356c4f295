package orientation

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/ledger"
)

// rec builds transcript records for the tests.
type rec map[string]any

func prompt(text string) rec {
	return rec{"type": "user", "sessionId": "s", "timestamp": "2026-03-01T10:00:00Z", "message": rec{"role": "user", "content": text}}
}

// resp is a response at second sec with context ctx (all cache reads) and
// one content block.
func resp(id string, sec int, ctx int64, stop string, block rec) rec {
	msg := rec{"id": id, "model": "claude-opus-4-6", "content": []rec{block},
		"usage": rec{"input_tokens": 0, "cache_creation_input_tokens": 0, "cache_read_input_tokens": ctx, "output_tokens": 100}}
	if stop != "" {
		msg["stop_reason"] = stop
	}
	return rec{"type": "assistant", "sessionId": "s", "cwd": "/repo", "gitBranch": "main",
		"timestamp": fmt.Sprintf("2026-03-01T10:%02d:%02dZ", sec/60, sec%60), "message": msg}
}

func text() rec { return rec{"type": "text", "text": "thinking it over"} }

func tool(name, path string) rec {
	in := rec{}
	if path != "" {
		in["file_path"] = path
		if name == "NotebookEdit" {
			in = rec{"notebook_path": path}
		}
	}
	return rec{"type": "tool_use", "id": "t", "name": name, "input": in}
}

func boundary(sec int) rec {
	return rec{"type": "system", "subtype": "compact_boundary", "timestamp": fmt.Sprintf("2026-03-01T10:%02d:%02dZ", sec/60, sec%60),
		"compactMetadata": rec{"trigger": "auto", "preTokens": 160000}}
}

func sub(r rec) rec {
	r["isSidechain"] = true
	return r
}

// session writes a transcript and its subagent files and reads it back.
func session(t *testing.T, main []rec, subs ...[]rec) *Session {
	t.Helper()
	dir := t.TempDir()
	path := writeSession(t, dir, main, subs...)
	s, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	s.dir = dir
	return s
}

// writeSession writes a transcript and its subagent files into dir.
func writeSession(t testing.TB, dir string, main []rec, subs ...[]rec) string {
	path := filepath.Join(dir, "s.jsonl")
	write := func(name string, recs []rec) {
		var b strings.Builder
		for _, r := range recs {
			data, _ := json.Marshal(r)
			b.Write(data)
			b.WriteByte('\n')
		}
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(path, main)
	for i, s := range subs {
		write(filepath.Join(dir, "s", "subagents", fmt.Sprintf("agent-%d.jsonl", i)), s)
	}
	return path
}

func pricer(t testing.TB) *Pricer {
	tab, err := prices.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return NewPricer(tab)
}

// readCost is what a response of context ctx costs here: cache reads at
// Opus 4.6's $0.50/M and 100 output tokens at $25/M.
func readCost(ctx int64) float64 { return (float64(ctx)*0.5 + 100*25) / 1e6 }

func TestActingRules(t *testing.T) {
	for _, tc := range []struct {
		name     string
		main     []rec
		subs     [][]rec
		finished bool
		by, on   string
		ctx      int64
		spent    int64 // responses in the spend
	}{
		{"edit inside the root", []rec{prompt("go"), resp("a", 1, 10000, "", text()), resp("b", 2, 20000, "", tool("Edit", "/repo/x.go"))}, nil, false, "Edit", "x.go", 20000, 1},
		{"write", []rec{prompt("go"), resp("a", 1, 10000, "", tool("Write", "/repo/d/new.go"))}, nil, false, "Write", "d/new.go", 10000, 0},
		{"notebook edit", []rec{prompt("go"), resp("a", 1, 10000, "", text()), resp("b", 2, 15000, "", tool("NotebookEdit", "/repo/n.ipynb"))}, nil, false, "NotebookEdit", "n.ipynb", 15000, 1},
		{"ask the operator", []rec{prompt("go"), resp("a", 1, 10000, "", text()), resp("b", 2, 12000, "", tool("AskUserQuestion", ""))}, nil, false, "AskUserQuestion", "", 12000, 1},
		{"exit plan mode", []rec{prompt("go"), resp("a", 1, 10000, "", text()), resp("b", 2, 13000, "", tool("ExitPlanMode", ""))}, nil, false, "ExitPlanMode", "", 13000, 1},
		{"end_turn", []rec{prompt("go"), resp("a", 1, 10000, "tool_use", tool("Read", "/repo/x")), resp("b", 2, 14000, "end_turn", text())}, nil, false, "end_turn", "", 14000, 1},
		{"no stop reasons: last response before the next prompt", []rec{prompt("go"), resp("a", 1, 10000, "", tool("Read", "/repo/x")), resp("b", 2, 14000, "", text()), prompt("and then?"), resp("c", 3, 16000, "", text())}, nil, false, "end_turn", "", 14000, 1},
		{"no stop reasons, finished: the last response ends the turn", []rec{prompt("go"), resp("a", 1, 10000, "", tool("Read", "/repo/x")), resp("b", 2, 14000, "", text())}, nil, true, "end_turn", "", 14000, 1},
		{"no stop reasons, mid-turn: nothing yet", []rec{prompt("go"), resp("a", 1, 10000, "", tool("Read", "/repo/x")), resp("b", 2, 14000, "", text())}, nil, false, "", "", 0, 2},
		{"tool_use stop before a prompt does not end the turn", []rec{prompt("go"), resp("a", 1, 10000, "tool_use", tool("Bash", "")), prompt("stop"), resp("b", 2, 11000, "end_turn", text())}, nil, false, "end_turn", "", 11000, 1},
		{"a write under tmp/ is not acting", []rec{prompt("go"), resp("a", 1, 10000, "", tool("Write", "/repo/tmp/scratch.md")), resp("b", 2, 12000, "", tool("Edit", "/repo/tmpl/x"))}, nil, false, "Edit", "tmpl/x", 12000, 1},
		{"an edit outside the root is not acting", []rec{prompt("go"), resp("a", 1, 10000, "", tool("Edit", "/elsewhere/x")), resp("b", 2, 12000, "", tool("Edit", "/repo/../repo2/x")), resp("c", 3, 13000, "", tool("Edit", "/repo/y"))}, nil, false, "Edit", "y", 13000, 2},
		{"a subagent's edit acts", []rec{prompt("go"), resp("a", 1, 10000, "", tool("Agent", "")), resp("b", 9, 30000, "", tool("Edit", "/repo/late"))},
			[][]rec{{sub(resp("s1", 2, 5000, "", text())), sub(resp("s2", 3, 6000, "", tool("Write", "/repo/sub.go"))), sub(resp("s3", 4, 7000, "end_turn", text()))}},
			false, "Write", "sub.go", 6000, 2},
		{"a subagent's end_turn does not act", []rec{prompt("go"), resp("a", 1, 10000, "", tool("Agent", "")), resp("b", 9, 30000, "", tool("Edit", "/repo/x"))},
			[][]rec{{sub(resp("s1", 2, 5000, "end_turn", text())), sub(resp("s2", 3, 6000, "", tool("Write", "/repo/tmp/x")))}},
			false, "Edit", "x", 30000, 3},
		{"no action at all", []rec{prompt("go"), resp("a", 1, 10000, "", tool("Read", "/repo/x")), resp("b", 2, 14000, "", tool("Bash", ""))}, nil, false, "", "", 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := session(t, tc.main, tc.subs...)
			got := Orientation(s, pricer(t), Options{Finished: tc.finished})
			if got.EndedBy != tc.by || got.EndedOn != tc.on || got.ContextTokens != tc.ctx || got.Spend.Responses != tc.spent {
				t.Errorf("got %s %q ctx %d after %d responses; want %s %q ctx %d after %d",
					got.EndedBy, got.EndedOn, got.ContextTokens, got.Spend.Responses, tc.by, tc.on, tc.ctx, tc.spent)
			}
			if tc.finished {
				return
			}
			// The early-stopping reader measures the same phase.
			part, err := ReadOrientation(filepath.Join(s.dir, "s.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if early := Orientation(part, pricer(t), Options{}); early != got {
				t.Errorf("ReadOrientation measured %+v, Read %+v", early, got)
			}
		})
	}
}

// TestSpendExcludesActing pins the spend's dollars: everything before the
// acting response, in timestamp order across files, and not the acting
// response itself.
func TestSpendExcludesActing(t *testing.T) {
	s := session(t,
		[]rec{prompt("go"), resp("a", 1, 10000, "", text()), resp("a", 1, 10000, "", tool("Agent", "")), resp("b", 5, 20000, "", tool("Edit", "/repo/x"))},
		[]rec{sub(resp("s1", 2, 3000, "", text())), sub(resp("s2", 6, 4000, "", text()))},
	)
	got := Orientation(s, pricer(t), Options{})
	want := readCost(10000) + readCost(3000)
	if got.Spend.Responses != 2 || fmt.Sprintf("%.9f", got.Spend.CostUSD) != fmt.Sprintf("%.9f", want) {
		t.Errorf("spend %d responses $%.9f, want 2 and $%.9f", got.Spend.Responses, got.Spend.CostUSD, want)
	}
	if got.EndedAt != "2026-03-01T10:00:05Z" {
		t.Errorf("endedAt %s", got.EndedAt)
	}
}

func TestReorientationPerCompaction(t *testing.T) {
	s := session(t, []rec{
		prompt("go"), resp("a", 1, 10000, "", tool("Edit", "/repo/x")),
		resp("b", 2, 150000, "", text()),
		boundary(10),
		rec{"type": "user", "isCompactSummary": true, "message": rec{"role": "user", "content": "summary"}},
		resp("c", 11, 30000, "", tool("Read", "/repo/x")), resp("d", 12, 35000, "", tool("Edit", "/repo/y")),
		boundary(20),
		resp("e", 21, 20000, "", text()),
	})
	or, cs := Phases(s, pricer(t), Options{Finished: true})
	if or.EndedBy != "Edit" || or.Spend.Responses != 0 {
		t.Errorf("orientation %+v", or)
	}
	if len(cs) != 2 {
		t.Fatalf("%d compactions, want 2", len(cs))
	}
	if c := cs[0]; c.EndedBy != "Edit" || c.EndedOn != "y" || c.ContextTokens != 35000 || c.Spend.Responses != 1 || c.PreTokens != 160000 || c.Trigger != "auto" {
		t.Errorf("first reorientation %+v", c)
	}
	if c := cs[1]; c.EndedBy != "end_turn" || c.ContextTokens != 20000 || c.Spend.Responses != 0 {
		t.Errorf("second reorientation %+v", c)
	}
}

func TestOpeningPrompt(t *testing.T) {
	long := strings.Repeat("é", 200)
	for _, tc := range []struct {
		content any
		want    string
	}{
		{"  fix\n\tthe   bug ", "fix the bug"},
		{"<command-message>relay</command-message>\n<command-name>/relay</command-name>\n<command-args>take  feat/x</command-args>", "/relay take feat/x"},
		{"<command-name>/clear</command-name><command-args></command-args>", "/clear"},
		{[]rec{{"type": "text", "text": "look at"}, {"type": "image"}, {"type": "text", "text": "this"}}, "look at this"},
		{long, strings.Repeat("é", PromptLimit)},
	} {
		s := session(t, []rec{
			{"type": "user", "isMeta": true, "message": rec{"role": "user", "content": "meta"}},
			{"type": "user", "isSidechain": true, "message": rec{"role": "user", "content": "side"}},
			{"type": "user", "message": rec{"role": "user", "content": []rec{{"type": "tool_result", "content": "x"}}}},
			{"type": "user", "message": rec{"role": "user", "content": "<local-command-stdout>ok</local-command-stdout>"}},
			{"type": "user", "message": rec{"role": "user", "content": tc.content}},
			prompt("second"),
		})
		if s.OpeningPrompt != tc.want {
			t.Errorf("opening prompt %q, want %q", s.OpeningPrompt, tc.want)
		}
	}
	if !ledger.IsRelay("/relay take main") || ledger.IsRelay("/relay") || ledger.IsRelay("/relay takeover") || ledger.IsRelay("please /relay take x") {
		t.Error("IsRelay")
	}
}

func TestInside(t *testing.T) {
	for _, tc := range []struct {
		root, path, rel string
		ok              bool
	}{
		{"/repo", "/repo/a.go", "a.go", true},
		{"/repo/", "/repo/d/../a.go", "a.go", true},
		{"/repo", "b/c.go", "b/c.go", true},
		{"/repo", "/repo", "", false},
		{"/repo", "/repo/tmp/x", "", false},
		{"/repo", "/repo/tmp", "", false},
		{"/repo", "/repo/d/tmp/x", "d/tmp/x", true},
		{"/repo", "/repository/x", "", false},
		{"/repo", "/repo/../x", "", false},
		{"", "/repo/x", "", false},
	} {
		rel, ok := Inside(tc.root, tc.path)
		if rel != tc.rel || ok != tc.ok {
			t.Errorf("Inside(%q, %q) = %q, %v; want %q, %v", tc.root, tc.path, rel, ok, tc.rel, tc.ok)
		}
	}
}

// TestDamagedTranscript reads a transcript with a spliced line, a NUL run
// and a half-written last line.
func TestDamagedTranscript(t *testing.T) {
	a, _ := json.Marshal(resp("a", 1, 10000, "", text()))
	b, _ := json.Marshal(resp("b", 2, 20000, "", tool("Edit", "/repo/x")))
	c, _ := json.Marshal(resp("c", 3, 30000, "", text()))
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	data := string(a) + string(b) + "\n\x00\x00\x00" + string(c) + "\n" + string(c[:40])
	os.WriteFile(path, []byte(data), 0o644)
	s, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Responses) != 3 {
		t.Errorf("%d responses, want 3", len(s.Responses))
	}
}

// TestCostState: Claude Code's own total is the last cost-state record's,
// whatever spelling of the field it carries; absent, it is nil.
func TestCostState(t *testing.T) {
	for _, tc := range []struct {
		recs []rec
		want string
	}{
		{[]rec{resp("a", 1, 100, "", text())}, "<nil>"},
		{[]rec{{"type": "cost-state", "totalCostUSD": 0.5}, resp("a", 1, 100, "", text()), {"type": "cost-state", "totalCostUSD": 1.25, "modelUsage": rec{}}}, "1.25"},
		{[]rec{{"type": "cost-state", "total_cost_usd": 2.5}}, "2.5"},
		{[]rec{{"type": "cost-state", "totalCostUsd": 3.0}, {"type": "cost-state", "sessionId": "s"}}, "3"},
		{[]rec{{"type": "cost-state", "totalCostUSD": "lots"}}, "<nil>"},
		{[]rec{{"type": "user", "message": rec{"role": "user", "content": `say "cost-state" and {"totalCostUSD": 9}`}}}, "<nil>"},
	} {
		s := session(t, tc.recs)
		got := "<nil>"
		if s.ClaudeCodeTotalUSD != nil {
			got = fmt.Sprint(*s.ClaudeCodeTotalUSD)
		}
		if got != tc.want {
			t.Errorf("%v: claudeCodeTotalUsd %s, want %s", tc.recs, got, tc.want)
		}
	}
}

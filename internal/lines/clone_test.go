package lines

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/orientation"
	"github.com/muthur/context-budget/ledger"
)

// orientedTranscript writes a session of model that opens at 20,000
// tokens of context, grows 2,500 a response, first acts (an Edit of a file
// of its project) at oriented, and reads to tokens; it returns its path.
func orientedTranscript(t *testing.T, dir, model string, oriented, to int64) string {
	t.Helper()
	var b strings.Builder
	for i, ctx := 0, int64(20_000); ctx <= to; i, ctx = i+1, ctx+2_500 {
		read, write := ctx-2_500, int64(2_500)
		if i == 0 {
			read, write = 0, 20_000
		}
		tool, input := "Read", `{"file_path":"/repo/a.go"}`
		if ctx == oriented {
			tool, input = "Edit", `{"file_path":"/repo/a.go","old_string":"a","new_string":"b"}`
		}
		fmt.Fprintf(&b, `{"type":"assistant","sessionId":"me","cwd":"/repo","timestamp":"2026-11-30T05:%02d:00.000Z","message":{"id":"msg_%d","model":%q,"role":"assistant","content":[{"type":"tool_use","id":"toolu_%d","name":%q,"input":%s}],"stop_reason":"tool_use","usage":{"input_tokens":0,"cache_read_input_tokens":%d,"cache_creation_input_tokens":%d,"cache_creation":{"ephemeral_5m_input_tokens":%d,"ephemeral_1h_input_tokens":0},"output_tokens":120}}}`+"\n",
			i%60, i, model, i, tool, input, read, write, write)
		fmt.Fprintf(&b, `{"type":"user","sessionId":"me","cwd":"/repo","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":"ok"}]}}`+"\n", i)
	}
	name := filepath.Join(dir, "me.jsonl")
	if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// oriented25k decides for the session: oriented at 25k, reading
// 35k, on Opus 4.6, in a project whose ledger holds rows.
func oriented25k(t *testing.T, rows []ledger.Row) Decision {
	t.Helper()
	root := t.TempDir()
	for i := range rows {
		if _, err := ledger.Write(root, &rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	name := orientedTranscript(t, t.TempDir(), "claude-opus-4-6", 25_000, 35_000)
	var h forecast.History
	if err := h.Update(name); err != nil {
		t.Fatal(err)
	}
	return Decide(Input{Settings: settings(t, nil), Table: table(t), History: &h, Reading: 35_000,
		Root: root, SessionID: "me", TranscriptPath: name})
}

// paceRows returns n rows of a measured pace.
func paceRows(n int, step, rewrite, out float64) []ledger.Row {
	var rows []ledger.Row
	for i := range n {
		rows = append(rows, ledger.Row{SessionID: fmt.Sprintf("p%d", i), FirstResponseAt: "2026-10-01T10:00:00Z",
			Pace: &ledger.Pace{Model: "claude-opus-4-6", StepTokens: step, Requests: 80, RewriteShare: rewrite, OutputPerRequest: out}})
	}
	return rows
}

// relayedRows returns n rows of relayed sessions oriented at w tokens for
// usd dollars.
func relayedRows(n int, w int64, usd float64) []ledger.Row {
	var rows []ledger.Row
	for i := range n {
		rows = append(rows, ledger.Row{SessionID: fmt.Sprintf("r%d", i), OpeningPrompt: "/relay take main", FirstResponseAt: "2026-10-01T10:00:00Z",
			Orientation: &ledger.Phase{EndedBy: "Edit", ContextTokens: w, Spend: ledger.Tally{CostUSD: usd}}})
	}
	return rows
}

// TestCommittedRowsCannotCollapse is the case: a session oriented
// at 25k, reading 35k, whose lines the prior alone puts near 37k/51k. No
// set of committed rows moves its pause below the larger of 0.8 × that
// and its orientation + 15k, so none makes the pause fire at 35k (a relay
// loop: the successor would do the same).
func TestCommittedRowsCannotCollapse(t *testing.T) {
	alone := oriented25k(t, nil)
	if w, p := alone.Lines.Warn.Tokens, alone.Lines.Pause.Tokens; w < 35_000 || w > 40_000 || p < 48_000 || p > 55_000 || alone.Reorientation.Tokens != 25_000 {
		t.Fatalf("the prior alone gives %d/%d, oriented at %d; want near 37k/51k at 25k", w, p, alone.Reorientation.Tokens)
	}
	floor := max(int64(LedgerShare*float64(alone.Lines.Pause.Tokens)), 25_000+SuccessorRoom)
	cases := map[string][]ledger.Row{
		"five rows of 0.001 tokens a step":   paceRows(5, 1e-3, 0.01, 90),
		"five rows of 10 tokens a step":      paceRows(5, 10, 0.01, 90),
		"five rows at the least step":        paceRows(5, ledger.MinStepTokens, 0.01, 90),
		"fifty rows at the least step":       paceRows(50, ledger.MinStepTokens, 0.01, 90),
		"five rows re-writing all":           paceRows(5, 500, 1, 90),
		"five rows at the most rewrite":      paceRows(5, 500, ledger.MaxRewriteShare, 90),
		"five rows at the most output":       paceRows(5, 500, 0.01, ledger.MaxOutputPerRequest),
		"two hundred rows at every extreme":  paceRows(200, ledger.MinStepTokens, ledger.MaxRewriteShare, ledger.MaxOutputPerRequest),
		"relayed rows oriented at 1 token":   relayedRows(5, 1, 0),
		"relayed rows at the least":          relayedRows(5, ledger.MinOrientationTokens, 0),
		"relayed rows at 10 tokens and $1e6": relayedRows(3, 10, 1e6),
		"relayed rows at the most":           relayedRows(3, ledger.MaxOrientationTokens, ledger.MaxOrientationUSD),
		"one relayed row, free":              relayedRows(1, ledger.MinOrientationTokens, 0),
		"relayed and paced at the extremes": append(relayedRows(20, ledger.MinOrientationTokens, 0),
			paceRows(100, ledger.MinStepTokens, ledger.MaxRewriteShare, ledger.MaxOutputPerRequest)...),
	}
	for name, rows := range cases {
		d := oriented25k(t, rows)
		p := d.Lines.Pause
		if p.Tokens < floor || p.Tokens < 40_000 {
			t.Errorf("%s: pause %d (%s), below %d", name, p.Tokens, p.SetBy, floor)
		}
		if w := d.Lines.Warn.Tokens; w < int64(LedgerShare*float64(alone.Lines.Warn.Tokens)) || w >= p.Tokens {
			t.Errorf("%s: warn %d, pause %d; the prior alone warns at %d", name, w, p.Tokens, alone.Lines.Warn.Tokens)
		}
		if _, fire := climb.StepIn(climb.Record{}, 35_000, d.Lines.Tokens(), 0); fire == climb.Pause {
			t.Errorf("%s: the pause fires at 35k (lines %+v)", name, d.Lines)
		}
	}
}

// TestCommittedRowsStillRefine: rows in range still move the lines, within
// the bound (a check that the floor is not all there is); rows out of the
// range real sessions show move nothing.
func TestCommittedRowsStillRefine(t *testing.T) {
	alone := oriented25k(t, nil)
	slow := oriented25k(t, paceRows(5, ledger.MaxStepTokens, 0, 10))
	if slow.Lines.Pause.Tokens <= alone.Lines.Pause.Tokens || !strings.Contains(slow.PaceFrom, "5 ledger sessions") {
		t.Errorf("five slow rows: pause %d, alone %d (%s)", slow.Lines.Pause.Tokens, alone.Lines.Pause.Tokens, slow.PaceFrom)
	}
	fast := oriented25k(t, paceRows(5, 600, 0.03, 100))
	if p := fast.Lines.Pause.Tokens; p >= alone.Lines.Pause.Tokens || p <= int64(LedgerShare*float64(alone.Lines.Pause.Tokens)) {
		t.Errorf("five quick rows: pause %d, alone %d", p, alone.Lines.Pause.Tokens)
	}
	for name, rows := range map[string][]ledger.Row{
		"ten tokens a step":     paceRows(5, 10, 0.01, 90),
		"a step of ten million": paceRows(5, 1e7, 0.01, 90),
		"a rewrite share of 2":  paceRows(5, 500, 2, 90),
		"a million out":         paceRows(5, 500, 0.01, 1e6),
	} {
		if d := oriented25k(t, rows); strings.Contains(d.PaceFrom, "ledger") {
			t.Errorf("%s: the rows refined the pace (%s)", name, d.PaceFrom)
		}
	}
	for name, rows := range map[string][]ledger.Row{
		"oriented at 1k":   relayedRows(3, 1_000, 0.5),
		"oriented at 1M":   relayedRows(3, 1_000_000, 0.5),
		"oriented for $90": relayedRows(3, 60_000, 90),
	} {
		if d := oriented25k(t, rows); d.Reorientation.Source == orientation.LedgerRelayed {
			t.Errorf("%s: the rows gave the reorientation (%+v)", name, d.Reorientation)
		}
	}
	relayed := oriented25k(t, relayedRows(3, 60_000, 0.5))
	if relayed.Reorientation.Source != orientation.LedgerRelayed || relayed.Reorientation.Tokens != 60_000 {
		t.Errorf("three relayed rows: %+v", relayed.Reorientation)
	}
}

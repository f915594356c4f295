package replay_test

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/internal/tuning"
)

// TestOrientationChecked: a session that reads twice and then edits a
// file of its root has its own orientation (the edit's context, what the
// two reads cost) checked against the prior's forecast of a fresh
// session's from its first context; the totals give the errors.
func TestOrientationChecked(t *testing.T) {
	resp := func(id string, ctx int, tool, path string) string {
		return `{"type":"assistant","sessionId":"s","cwd":"/r","timestamp":"2026-03-01T10:00:0` + id[1:] + `Z","message":{"id":"` + id +
			`","model":"claude-opus-4-6","role":"assistant","stop_reason":"tool_use","content":[{"type":"tool_use","id":"tu_` + id +
			`","name":"` + tool + `","input":{"file_path":"` + path + `"}}],"usage":{"input_tokens":0,"cache_read_input_tokens":0,"cache_creation_input_tokens":` +
			strconv.Itoa(ctx) + `,"output_tokens":100}}}`
	}
	result := func(id string) string {
		return `{"type":"user","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu_` + id + `","content":"ok"}]}}`
	}
	text := strings.Join([]string{
		`{"type":"user","sessionId":"s","cwd":"/r","message":{"role":"user","content":"go"}}`,
		resp("m1", 40_000, "Read", "/r/a.go"), result("m1"),
		resp("m2", 50_000, "Read", "/r/b.go"), result("m2"),
		resp("m3", 60_000, "Edit", "/r/a.go"), result("m3"),
		resp("m4", 70_000, "Bash", ""), result("m4"),
	}, "\n") + "\n"
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	table, _ := prices.Embedded()
	s, _ := tuning.FromEnv(func(string) string { return "" })
	opt := replay.Options{
		NewModel: func(p string) replay.Model { return replay.NewPolicyModel(s, table, "", p, nil) },
		Prices:   replay.TablePrices{Table: table},
	}
	got := replay.File(replay.Source{Path: path}, opt).Orientation
	if got == nil {
		t.Fatal("no orientation checked")
	}
	rt := restart.PerMillion(25, 0.5, 6.25) // Opus 4.6, 5-minute writes
	w, r := forecast.Shipped.Orientation.Reorientation(rt, 40_000)
	spent := (40_000+50_000)*6.25e-6 + 200*25e-6
	if got.Tokens != 60_000 || math.Abs(got.CostUSD-spent) > 1e-9 || got.PredictedTokens != w || math.Abs(got.PredictedUSD-r) > 1e-9 {
		t.Errorf("check %+v; want 60000 tokens, $%.4f spent, forecast %d, $%.4f", got, spent, w, r)
	}
	tot := replay.Total([]replay.Session{{Orientation: got}, {Orientation: &replay.OrientationCheck{PredictedTokens: 50_000, PredictedUSD: 0.3, Tokens: 50_000}}})
	if tot.Orientations != 2 || tot.OrientationTokensMedianAbsError == nil || tot.OrientationUSDMedianAbsError != nil {
		t.Errorf("totals %d, %v, %v: a session that spent nothing makes the dollars' median infinite, not zero",
			tot.Orientations, tot.OrientationTokensMedianAbsError, tot.OrientationUSDMedianAbsError)
	}
}

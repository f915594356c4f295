package replay_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/tuning"
)

// coldLog writes a transcript record by record, with a clock.
type coldLog struct {
	b   strings.Builder
	at  time.Time
	n   int
	ctx int64
}

func (l *coldLog) add(rec map[string]any) {
	rec["timestamp"] = l.at.UTC().Format(time.RFC3339Nano)
	line, _ := json.Marshal(rec)
	l.b.Write(append(line, '\n'))
}

// prompt is a user prompt (or a slash command's envelope) after idle.
func (l *coldLog) prompt(idle time.Duration, text string) {
	l.at = l.at.Add(idle)
	l.add(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
}

// result is a tool result after idle.
func (l *coldLog) result(idle time.Duration) {
	l.at = l.at.Add(idle)
	l.add(map[string]any{"type": "user", "message": map[string]any{"role": "user",
		"content": []any{map[string]any{"type": "tool_result", "tool_use_id": fmt.Sprintf("t%d", l.n)}}}})
}

// response answers at context ctx, writing written tokens to the cache.
func (l *coldLog) response(ctx, written int64) {
	l.at = l.at.Add(3 * time.Second)
	l.n++
	l.ctx = ctx
	l.add(map[string]any{"type": "assistant", "message": map[string]any{"id": fmt.Sprintf("msg_%d", l.n), "model": "claude-opus-4-6",
		"role": "assistant", "stop_reason": "tool_use",
		"content": []any{map[string]any{"type": "tool_use", "id": fmt.Sprintf("t%d", l.n), "name": "Bash"}},
		"usage": map[string]any{"input_tokens": 6, "cache_creation_input_tokens": written, "cache_read_input_tokens": ctx - 6 - written,
			"cache_creation": map[string]any{"ephemeral_5m_input_tokens": written, "ephemeral_1h_input_tokens": 0}, "output_tokens": 100}}})
}

// TestColdEvents: a prompt after 20 minutes at 200k re-writes and would
// have been stopped; a tool result after a long run re-writes but no
// prompt was there to stop; /compact and a warm prompt are not stopped.
func TestColdEvents(t *testing.T) {
	l := &coldLog{at: time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC)}
	l.prompt(0, "[prompt]")
	for i := range 30 {
		if i > 0 {
			l.result(20 * time.Second)
		}
		l.response(20_000+int64(i)*6_000, 6_000)
	}
	l.prompt(20*time.Minute, "[prompt]") // response 30: cold, stopped
	l.response(l.ctx+2_000, l.ctx)
	l.result(10 * time.Minute) // response 31: cold, no prompt
	l.response(l.ctx+2_000, l.ctx)
	l.prompt(10*time.Minute, "<command-name>/compact</command-name>") // response 32: passes
	l.response(l.ctx+2_000, l.ctx)
	l.prompt(3*time.Minute, "[prompt]") // response 33: warm
	l.response(l.ctx+2_000, 2_000)
	// A compaction, then a prompt after 20 minutes: the summary is
	// re-written, not the old context, and nothing is stopped.
	l.add(map[string]any{"type": "system", "subtype": "compact_boundary",
		"compactMetadata": map[string]any{"trigger": "manual", "preTokens": l.ctx}})
	l.prompt(20*time.Minute, "[prompt]") // response 34: after the boundary
	l.response(30_000, 28_000)

	p := filepath.Join(t.TempDir(), "cold.jsonl")
	if err := os.WriteFile(p, []byte(l.b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _ := tuning.FromEnv(func(string) string { return "" })
	table, _ := prices.Embedded()
	opt := replay.Options{
		NewModel: func(path string) replay.Model { return replay.NewPolicyModel(s, table, "", path, nil) },
		Prices:   replay.TablePrices{Table: table},
	}
	got := replay.File(replay.Source{Path: p}, opt)
	if len(got.Cold) != 3 {
		t.Fatalf("cold events %+v, want 3", got.Cold)
	}
	for i, want := range []struct {
		response int
		idle     int64
		stop     bool
	}{{30, 20 * 60, true}, {31, 10*60 + 3, false}, {32, 10 * 60, false}} {
		// After a tool result the idle runs to the response itself:
		// replay skips tool results unread, for speed.
		e := got.Cold[i]
		if e.Response != want.response || e.IdleSeconds != want.idle || e.Stop != want.stop || e.TTL != "5m" {
			t.Errorf("event %d = %+v, want response %d, idle %ds, stop %v", i, e, want.response, want.idle, want.stop)
		}
		// 180k+ written at Opus 4.6's $6.25 per million 5-minute writes.
		if e.RewriteUSD < 1.1 || e.RewriteUSD > 1.3 {
			t.Errorf("event %d re-write cost %v, want about $1.2", i, e.RewriteUSD)
		}
	}
	if got.Cold[0].SavingUSD < 0.30 {
		t.Errorf("stop saving %v, want at least the threshold", got.Cold[0].SavingUSD)
	}
	tot := replay.Total([]replay.Session{got})
	if c := tot.Cold; c.Rewrites != 3 || c.Stops != 1 || c.RewriteSessions != 1 || c.FalseStops != 0 {
		t.Errorf("totals %+v", c)
	}

	// Off: the re-writes are still counted, the stop is not.
	offOpt := opt
	offOpt.NewModel = func(path string) replay.Model {
		return replay.NewPolicyModel(s, table, "", path, func(k string) string {
			if k == tuning.EnvCold {
				return "off"
			}
			return ""
		})
	}
	off := replay.File(replay.Source{Path: p}, offOpt)
	if c := replay.Total([]replay.Session{off}).Cold; c.Rewrites != 3 || c.Stops != 0 {
		t.Errorf("off: %+v", c)
	}
}

// TestColdWords: the cold totals say only what happened, each count
// agreeing with its noun.
func TestColdWords(t *testing.T) {
	idle, ctx := 900.0, 82_000.0
	for _, tc := range []struct {
		t    replay.ColdTotals
		want string
	}{
		{replay.ColdTotals{}, ""},
		{replay.ColdTotals{Rewrites: 1, RewriteSessions: 1, RewriteUSD: 0.5, MedianIdleSeconds: &idle, MedianContext: &ctx},
			"1 re-write of more than 50k tokens in 1 session cost $0.50 (median idle 15m0s, median context 82k)"},
		{replay.ColdTotals{Stops: 2, StopSessions: 1, StopRewriteUSD: 1.5, SavingUSD: 3},
			"the stop would have held back 2 prompts in 1 session (their re-writes $1.50), where a fresh session saves $3.00 over the next 100k tokens by the forecast"},
		{replay.ColdTotals{Rewrites: 3, RewriteSessions: 2, RewriteUSD: 2, Stops: 1, StopSessions: 1, StopRewriteUSD: 0.7, SavingUSD: 1, FalseStops: 1},
			"3 re-writes of more than 50k tokens in 2 sessions cost $2.00; the stop would have held back 1 prompt in 1 session (their re-writes $0.70), where a fresh session saves $1.00 over the next 100k tokens by the forecast; 1 of them found the cache warm after all"},
	} {
		if got := tc.t.Words(); got != tc.want {
			t.Errorf("%+v:\n got %q\nwant %q", tc.t, got, tc.want)
		}
	}
}

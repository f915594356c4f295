package cold

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/internal/state"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// opus46 are Opus 4.6's rates with 5-minute writes.
var opus46 = restart.PerMillion(25, 0.50, 6.25)

// TestPrice pins the arithmetic: the re-write, carrying on (the re-write
// replaces the slice's first read), the fresh session and the saving.
func TestPrice(t *testing.T) {
	d := lines.Decision{Priced: true, TTL: "5m",
		Cost:          restart.Model{Rates: opus46, Q: 40.0 / restart.Slice},
		Reorientation: lines.Reorientation{Tokens: 100_000, CostUSD: 0.90, Words: "the estimate"}}
	f, ok := Price(&d, &forecast.Response{Context: 20_000, CacheRead: 18_000}, 300_000)
	if !ok {
		t.Fatal("not priced")
	}
	recache := 282_000*6.25e-6 + 18_000*0.5e-6 // 1.7625 + 0.009
	carry := recache - 300_000*0.5e-6 + d.Cost.CarryOn(300_000)
	fresh := 0.90 + d.Cost.CarryOn(100_000)
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"recache", f.RecacheUSD, recache},
		{"carry on", f.CarryOnUSD, carry},
		{"fresh", f.FreshUSD, fresh},
		{"saving", f.SavingUSD, carry - fresh},
	} {
		if !near(tc.got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	// By hand: 40 requests over the slice, so carrying on at 300k reads
	// 40·350k and the fresh session 40·150k: $4 of reads apart, plus the
	// re-write less one read of 300k, less R.
	if want := 4.0 + recache - 0.15 - 0.90; !near(f.SavingUSD, want) {
		t.Errorf("saving = %v, want %v by hand", f.SavingUSD, want)
	}
	if !f.Pays(0.30) || f.Pays(2.0) {
		t.Errorf("Pays: %+v", f)
	}
	if _, ok := Price(&lines.Decision{}, &forecast.Response{}, 300_000); ok {
		t.Error("an unpriced decision priced")
	}
}

// TestPaysNeedsBoth: a saving alone is not enough when the re-write is
// cheap, nor a dear re-write when the fresh session saves little.
func TestPaysNeedsBoth(t *testing.T) {
	for _, tc := range []struct {
		f    Figures
		want bool
	}{
		{Figures{SavingUSD: 1, RecacheUSD: 1}, true},
		{Figures{SavingUSD: 1, RecacheUSD: 0.29}, false},
		{Figures{SavingUSD: 0.29, RecacheUSD: 5}, false},
		{Figures{SavingUSD: 0.30, RecacheUSD: 0.30}, true},
	} {
		if got := tc.f.Pays(0.30); got != tc.want {
			t.Errorf("Pays(%+v) = %v, want %v", tc.f, got, tc.want)
		}
	}
}

// TestStep walks a spell: stop, same again passes and ends the stops;
// a different prompt after a stop is stopped once more; a new spell
// starts over; warn tells once.
func TestStep(t *testing.T) {
	var rec Spell
	steps := []struct {
		id, prompt string
		warn       bool
		want       Verdict
	}{
		{"a", "p1", false, Stop},
		{"a", "p2", false, Stop}, // a different prompt: stopped once more
		{"a", "p2", false, Pass}, // sent again: passes
		{"a", "p1", false, Pass}, // nothing more before a response
		{"a", "p3", false, Pass},
		{"b", "p1", false, Stop}, // a new spell
		{"b", "p1", false, Pass},
		{"c", "x", true, Tell},
		{"c", "x", true, Pass},
		{"c", "y", true, Pass},
	}
	for i, s := range steps {
		next, v, _ := Step(rec, s.id, s.prompt, s.warn)
		if v != s.want {
			t.Fatalf("step %d (%s %s): verdict %v, want %v", i, s.id, s.prompt, v, s.want)
		}
		rec = next
	}
}

func TestPasses(t *testing.T) {
	for _, tc := range []struct {
		prompt string
		want   bool
	}{
		{"/compact", true}, {"  /compact keep the plan", true}, {"/clear", true},
		{"/relay take main", true}, {"/relay", true}, {"/MODEL opus", true},
		{"/cost", true}, {"!git status", true},
		{"/review the PR", false}, {"/init", false}, {"carry on", false}, {"", false},
		{"/relayed", false}, {"please /clear", false},
		// The plugin's relay, in its spellings (issue 31, class 6); the
		// plugin's other skills and another plugin's relay do not pass.
		{"/context-budget:relay", true}, {"/context-budget:relay take main", true},
		{"  /Context-Budget:Relay\ttake feat", true}, {"/context-budget:relay\ntake x", true},
		{"/context-budget:go", false}, {"/other:relay", false}, {"/context-budget:relayed", false},
		{"/context-budget:", false}, {"/context-budget:compact", false},
	} {
		if got := Passes(tc.prompt); got != tc.want {
			t.Errorf("Passes(%q) = %v, want %v", tc.prompt, got, tc.want)
		}
	}
}

func TestParseStatus(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want Work
	}{
		{"## main...origin/main [ahead 1]\n", Work{Branch: "main", Committed: true, Known: true}},
		{"## cold\n M a.go\n", Work{Branch: "cold", Known: true}},
		{"## feat/x\n?? new.txt\n", Work{Branch: "feat/x", Known: true}},
		{"## HEAD (no branch)\n", Work{Committed: true, Known: true}},
		{"## No commits yet on main\n", Work{Branch: "main", Committed: true, Known: true}},
	} {
		if got := ParseStatus([]byte(tc.out)); got != tc.want {
			t.Errorf("ParseStatus(%q) = %+v, want %+v", tc.out, got, tc.want)
		}
	}
}

func TestIdle(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{14*time.Minute + 50*time.Second, "14m"}, {65 * time.Minute, "1h05m"}, {50 * time.Hour, "2d"},
	} {
		if got := Idle(tc.d); got != tc.want {
			t.Errorf("Idle(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// session writes a transcript of n responses growing to ctx tokens, the
// last landing at last; ttl1h makes every write a 1-hour one.
func session(t testing.TB, ctx int64, last time.Time, ttl1h bool) (root, path string) {
	t.Helper()
	root = t.TempDir()
	path = filepath.Join(root, "s1.jsonl")
	var b strings.Builder
	n := 40
	for i := range n {
		c := 20_000 + (ctx-20_000)*int64(i)/int64(n-1)
		at := last.Add(-time.Duration(n-1-i) * 20 * time.Second)
		write5m, write1h := int64(2_000), int64(0)
		if ttl1h {
			write5m, write1h = 0, 2_000
		}
		rec := map[string]any{
			"type": "assistant", "timestamp": at.UTC().Format(time.RFC3339Nano), "cwd": root,
			"message": map[string]any{"id": fmt.Sprintf("msg_%d", i), "model": "claude-opus-4-6", "role": "assistant",
				"stop_reason": "tool_use", "content": []any{map[string]any{"type": "tool_use", "id": fmt.Sprintf("t%d", i), "name": "Bash", "input": map[string]any{}}},
				"usage": map[string]any{"input_tokens": 6, "cache_creation_input_tokens": 2_000, "cache_read_input_tokens": c - 2_006,
					"cache_creation": map[string]any{"ephemeral_5m_input_tokens": write5m, "ephemeral_1h_input_tokens": write1h},
					"output_tokens":  100}},
		}
		line, _ := json.Marshal(rec)
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, path
}

func call(root, path, prompt string, now time.Time, env map[string]string) Call {
	return Call{
		Payload: reading.Payload{HookEventName: "UserPromptSubmit", SessionID: "s1", TranscriptPath: path, Cwd: root, Prompt: prompt},
		Root:    root, Now: now,
		Getenv:   func(k string) string { return env[k] },
		LookWork: func(string) Work { return Work{Branch: "feat", Committed: true, Known: true} },
	}
}

// TestOnPrompt runs the hook's decision on real files: a cold 300k
// session is stopped with the figures, passes when sent again, and a
// warm one, a 1-hour one inside its hour, a slash command and =off pass.
func TestOnPrompt(t *testing.T) {
	last := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	root, path := session(t, 300_000, last, false)
	now := last.Add(14*time.Minute + 10*time.Second)

	o, err := OnPrompt(call(root, path, "carry on", now, nil))
	if err != nil || !o.Block {
		t.Fatalf("cold prompt: %+v, %v; want a stop", o, err)
	}
	for _, want := range []string{"idle for 14m", "5-minute prompt cache", "~300k tokens", "/clear, then /relay take feat", "send the same prompt again"} {
		if !strings.Contains(o.Reason, want) {
			t.Errorf("reason lacks %q:\n%s", want, o.Reason)
		}
	}
	if o, _ := OnPrompt(call(root, path, "/compact", now, nil)); o.Block {
		t.Error("/compact stopped")
	}
	if o, _ := OnPrompt(call(root, path, "carry on", now, nil)); o.Block || o.Context != "" {
		t.Errorf("the same prompt again: %+v, want a pass", o)
	}
	if o, _ := OnPrompt(call(root, path, "something else", now, nil)); o.Block {
		t.Error("stopped again after the user chose to carry on")
	}

	// Warm: four minutes idle.
	root2, path2 := session(t, 300_000, last, false)
	if o, _ := OnPrompt(call(root2, path2, "go", last.Add(4*time.Minute), nil)); o.Block || o.Context != "" {
		t.Errorf("warm: %+v", o)
	}
	if _, err := os.Stat(filepath.Join(root2, "tmp")); err == nil {
		t.Error("a warm prompt wrote state")
	}
	// Off.
	if o, _ := OnPrompt(call(root2, path2, "go", now, map[string]string{"MUTHUR_CONTEXT_BUDGET_COLD": "off"})); o.Block {
		t.Error("off stopped")
	}
	// Warn: the figures in context, once.
	warn := map[string]string{"MUTHUR_CONTEXT_BUDGET_COLD": "warn"}
	o, _ = OnPrompt(call(root2, path2, "go", now, warn))
	if o.Block || !strings.Contains(o.Context, "idle for 14m") {
		t.Errorf("warn: %+v", o)
	}
	if o, _ := OnPrompt(call(root2, path2, "go on", now, warn)); o.Context != "" || o.Block {
		t.Errorf("warn twice: %+v", o)
	}
	// A bad variable: the error, and the prompt passes.
	if o, err := OnPrompt(call(root2, path2, "go", now, map[string]string{"MUTHUR_CONTEXT_BUDGET_COLD": "maybe"})); err == nil || o.Block {
		t.Errorf("bad variable: %+v, %v", o, err)
	}

	// 1-hour cache: 14 minutes is warm, 70 is cold.
	root3, path3 := session(t, 300_000, last, true)
	if o, _ := OnPrompt(call(root3, path3, "go", now, nil)); o.Block {
		t.Error("1h cache stopped after 14m")
	}
	o, _ = OnPrompt(call(root3, path3, "go", last.Add(70*time.Minute), nil))
	if !o.Block || !strings.Contains(o.Reason, "1-hour prompt cache") {
		t.Errorf("1h cache after 70m: %+v", o)
	}

	// Small context: the re-write is cheap, no stop.
	root4, path4 := session(t, 40_000, last, false)
	if o, _ := OnPrompt(call(root4, path4, "go", now, nil)); o.Block {
		t.Errorf("40k session stopped: %s", o.Reason)
	}
}

// TestUncommittedNoOffer: with uncommitted work the reason offers no
// fresh start.
func TestUncommittedNoOffer(t *testing.T) {
	last := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	root, path := session(t, 300_000, last, false)
	c := call(root, path, "go", last.Add(20*time.Minute), nil)
	c.LookWork = func(string) Work { return Work{Branch: "feat", Known: true} }
	o, _ := OnPrompt(c)
	if !o.Block || strings.Contains(o.Reason, "/relay take") || !strings.Contains(o.Reason, "uncommitted") {
		t.Errorf("uncommitted: %+v", o)
	}
}

// TestOnStartKeepsResume: a resumed start's figures stand in for a
// transcript with no response yet.
func TestOnStartKeepsResume(t *testing.T) {
	root := t.TempDir()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	c := Call{Payload: reading.Payload{HookEventName: "SessionStart", SessionID: "s2", Source: "fork",
		SecondsSinceLastResponse: 900, ContextTokens: 250_000, CacheLikelyExpired: true},
		Root: root, Now: now, Getenv: func(string) string { return "" }}
	if err := OnStart(c); err != nil {
		t.Fatal(err)
	}
	r, ok := fromResume(filepath.Join(root, "tmp", "context-budget"), "s2")
	if !ok || r.Tokens != 250_000 {
		t.Fatalf("fromResume = %+v, %v", r, ok)
	}
	if at, _ := LastResponse(r.Time); !at.Equal(now.Add(-15 * time.Minute)) {
		t.Errorf("last response %v, want 15 minutes before the start", at)
	}
	c.Payload.Source = "startup"
	c.Payload.SessionID = "s3"
	OnStart(c)
	if _, ok := fromResume(filepath.Join(root, "tmp", "context-budget"), "s3"); ok {
		t.Error("a startup kept a resume record")
	}
}

// FuzzParseStatus: any git output parses without panic, and a branch
// read is one word.
func FuzzParseStatus(f *testing.F) {
	f.Add([]byte("## main...origin/main [ahead 1]\n M a.go\n"))
	f.Add([]byte("## HEAD (no branch)\n?? x\n"))
	f.Add([]byte("## No commits yet on main\n"))
	f.Fuzz(func(t *testing.T, out []byte) {
		w := ParseStatus(out)
		if strings.ContainsAny(w.Branch, " \t\n\r\v\f") {
			t.Fatalf("branch %q is not one word", w.Branch)
		}
		if !w.Known && (w.Committed || w.Branch != "") {
			t.Fatalf("unknown work with figures: %+v", w)
		}
	})
}

// TestFindParent: a fork's start names its parent only by the last
// response's context and time; the newest transcript that matches both
// is the parent, and a fork whose transcript holds nothing yet is priced
// from it.
func TestFindParent(t *testing.T) {
	last := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	root, parent := session(t, 300_000, last, false)
	dir := filepath.Dir(parent)
	// A decoy: the same context, an hour earlier.
	_, other := session(t, 300_000, last.Add(-time.Hour), false)
	data, _ := os.ReadFile(other)
	os.WriteFile(filepath.Join(dir, "decoy.jsonl"), data, 0o644)
	self := filepath.Join(dir, "fork.jsonl")
	// The parent's last response carried 300,000 tokens and wrote 100.
	if got := FindParent(dir, self, 300_100, last.Add(time.Second)); got != parent {
		t.Errorf("FindParent = %q, want %q", got, parent)
	}
	if got := FindParent(dir, self, 123_456, last); got != "" {
		t.Errorf("FindParent with another context = %q, want none", got)
	}

	now := last.Add(20 * time.Minute)
	start := Call{Payload: reading.Payload{HookEventName: "SessionStart", SessionID: "fork", Source: "fork", TranscriptPath: self,
		SecondsSinceLastResponse: 1200, ContextTokens: 300_100},
		Root: root, Now: now, Getenv: func(string) string { return "" }}
	if err := OnStart(start); err != nil {
		t.Fatal(err)
	}
	c := call(root, self, "go on", now, nil)
	c.Payload.SessionID = "fork"
	if o, _ := OnPrompt(c); !o.Block || !strings.Contains(o.Reason, "idle for 20m") {
		t.Errorf("the fork's first prompt: %+v, want a stop", o)
	}
}

// TestCompactedNotCold: after /compact the next request carries the
// summary, not the last response's context: no stop, however long idle.
func TestCompactedNotCold(t *testing.T) {
	last := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	root, path := session(t, 300_000, last, false)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"manual","preTokens":300000}}` + "\n")
	f.WriteString(`{"type":"user","isCompactSummary":true,"message":{"role":"user","content":"summary"}}` + "\n")
	f.Close()
	if !CompactedSince(path) {
		t.Fatal("CompactedSince missed the boundary")
	}
	if o, _ := OnPrompt(call(root, path, "go on", last.Add(20*time.Minute), nil)); o.Block || o.Context != "" {
		t.Errorf("compacted session stopped: %+v", o)
	}
	_, warm := session(t, 300_000, last, false)
	if CompactedSince(warm) {
		t.Error("CompactedSince without a boundary")
	}
}

// The check on a prompt prices with the hook's lines but saves nothing:
// the line cache the PostToolUse notices come from stays as the hook left
// it (here: absent), or a prompt typed at one moment or another would move
// the next notice, and replay could not decide as the hook does.
func TestPromptLeavesTheLineCache(t *testing.T) {
	last := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	root, path := session(t, 300_000, last, false)
	o, err := OnPrompt(call(root, path, "carry on", last.Add(20*time.Minute), nil))
	if err != nil || !o.Block {
		t.Fatalf("cold prompt: %+v, %v; want a stop", o, err)
	}
	matches, _ := filepath.Glob(filepath.Join(state.Dir(root), "*.line"))
	if len(matches) > 0 {
		t.Errorf("the cold check wrote the line cache: %v", matches)
	}
}

// fromResume is the reading a SessionStart record stands in for.
func fromResume(dir, id string) (reading.Reading, bool) {
	rec, ok := loadResume(dir, id)
	if !ok {
		return reading.Reading{}, false
	}
	return rec.reading()
}

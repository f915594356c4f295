package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/muthur/context-budget/internal/reading"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// coldTranscript writes a session of 40 responses growing from 20k to
// 300k on Opus 4.6, the last landing at last, and returns its root and
// transcript.
func coldTranscript(t *testing.T, last time.Time) (root, path string) {
	t.Helper()
	root = t.TempDir()
	path = filepath.Join(root, "cold1.jsonl")
	var b bytes.Buffer
	const n = 40
	for i := range n {
		c := int64(20_000 + 280_000*i/(n-1))
		rec := map[string]any{
			"type": "assistant", "timestamp": last.Add(-time.Duration(n-1-i) * 20 * time.Second).UTC().Format(time.RFC3339Nano), "cwd": root,
			"message": map[string]any{"id": fmt.Sprintf("msg_%d", i), "model": "claude-opus-4-6", "role": "assistant", "stop_reason": "tool_use",
				"content": []any{map[string]any{"type": "tool_use", "id": fmt.Sprintf("t%d", i), "name": "Bash", "input": map[string]any{}}},
				"usage": map[string]any{"input_tokens": 6, "cache_creation_input_tokens": 2_000, "cache_read_input_tokens": c - 2_006,
					"cache_creation": map[string]any{"ephemeral_5m_input_tokens": 2_000, "ephemeral_1h_input_tokens": 0}, "output_tokens": 100}},
		}
		line, _ := json.Marshal(rec)
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, path
}

// clearColdEnv keeps the developer's tuning out of the test.
func clearColdEnv(t *testing.T) {
	for _, v := range []string{"CLAUDE_PROJECT_DIR", "MUTHUR_CONTEXT_BUDGET_COLD", "MUTHUR_CONTEXT_BUDGET_COLD_SAVING_USD",
		"MUTHUR_CONTEXT_BUDGET_LINES", "MUTHUR_CONTEXT_BUDGET_WARN", "MUTHUR_CONTEXT_BUDGET_PAUSE"} {
		t.Setenv(v, "")
	}
}

// TestColdHookOutput: the UserPromptSubmit hook stops a cold prompt with
// exactly {"decision":"block","reason":…} and lets the same prompt through
// the second time; under warn it prints the hook-specific context.
func TestColdHookOutput(t *testing.T) {
	clearColdEnv(t)
	root, path := coldTranscript(t, time.Now().Add(-20*time.Minute))
	payload := fmt.Sprintf(`{"hook_event_name":"UserPromptSubmit","session_id":"cold1","transcript_path":%q,"cwd":%q,"prompt":"go on"}`, path, root)
	hook := func() string {
		var out, errb bytes.Buffer
		if code := Run([]string{"hook"}, strings.NewReader(payload), &out, &errb); code != 0 || errb.Len() > 0 {
			t.Fatalf("hook: exit %d, stderr %q", code, errb.String())
		}
		return out.String()
	}
	out := hook()
	var got map[string]string
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&got); err != nil || len(got) != 2 || got["decision"] != "block" || !strings.Contains(got["reason"], "idle for 20m") {
		t.Fatalf("first prompt: %q (%v); want a block with the idle time", out, err)
	}
	if !strings.HasSuffix(out, "}\n") || strings.Count(out, "\n") != 1 {
		t.Errorf("not one line of JSON: %q", out)
	}
	if out := hook(); out != "" {
		t.Errorf("the same prompt again: %q, want silence", out)
	}

	t.Setenv("MUTHUR_CONTEXT_BUDGET_COLD", "warn")
	root, path = coldTranscript(t, time.Now().Add(-20*time.Minute))
	payload = fmt.Sprintf(`{"hook_event_name":"UserPromptSubmit","session_id":"cold1","transcript_path":%q,"cwd":%q,"prompt":"go on"}`, path, root)
	out = hook()
	if !strings.HasPrefix(out, `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"Context budget: this session has been idle for 20m`) {
		t.Errorf("warn: %q", out)
	}

	t.Setenv("MUTHUR_CONTEXT_BUDGET_COLD", "sometimes")
	var o, e bytes.Buffer
	Run([]string{"hook"}, strings.NewReader(payload), &o, &e)
	if o.Len() != 0 || !strings.Contains(e.String(), "MUTHUR_CONTEXT_BUDGET_COLD") {
		t.Errorf("bad variable: stdout %q, stderr %q", o.String(), e.String())
	}
}

// TestLinesCold: `lines` shows the cold figures when the cache is cold,
// and none when it is warm.
func TestLinesCold(t *testing.T) {
	clearColdEnv(t)
	last := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	root, path := coldTranscript(t, last)
	defer func(f func() time.Time) { linesNow = f }(linesNow)
	for _, tc := range []struct {
		after time.Duration
		cold  bool
	}{{14 * time.Minute, true}, {2 * time.Minute, false}} {
		linesNow = func() time.Time { return last.Add(tc.after) }
		var out, errb bytes.Buffer
		if code := Run([]string{"lines", "--json", "--transcript", path, "--project", root}, nil, &out, &errb); code != 0 {
			t.Fatalf("lines: %d %s", code, errb.String())
		}
		var rep linesReport
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		if (rep.Cold != nil) != tc.cold {
			t.Fatalf("after %v: cold = %+v, want cold %v", tc.after, rep.Cold, tc.cold)
		}
		if c := rep.Cold; c != nil {
			if c.IdleSeconds != 14*60 || c.TTL != "5m" || c.Context != 300_000 || !c.WouldStop || c.RecacheUSD < 1.5 || c.SavingUSD < 0.30 {
				t.Errorf("cold figures: %+v", c)
			}
			out.Reset()
			Run([]string{"lines", "--transcript", path, "--project", root}, nil, &out, &errb)
			if !strings.Contains(out.String(), "cold cache     idle 14m, past the 5m TTL") {
				t.Errorf("the table lacks the cold line:\n%s", out.String())
			}
		}
	}
}

// TestStatuslineCold: the status line marks a cold cache.
func TestStatuslineCold(t *testing.T) {
	clearColdEnv(t)
	last := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	root, path := coldTranscript(t, last)
	defer func(f func() time.Time) { statusNow = f }(statusNow)
	p := statusPayload{SessionID: "cold1", TranscriptPath: path, Cwd: root}
	// The status line prices nothing itself: the hook's call after the
	// last tool call left the line cache it reads.
	if _, err := hookNotice(reading.Payload{HookEventName: "PostToolUse", SessionID: "cold1", TranscriptPath: path, Cwd: root}, os.Getenv, testOnlyNoDeadline()); err != nil {
		t.Fatal(err)
	}
	statusNow = func() time.Time { return last.Add(14 * time.Minute) }
	if got := statusLine(p, os.Getenv, false); !strings.Contains(got, " · cold 14m · re-write $1.") {
		t.Errorf("cold: %q", got)
	}
	statusNow = func() time.Time { return last.Add(time.Minute) }
	if got := statusLine(p, os.Getenv, false); strings.Contains(got, "cold") {
		t.Errorf("warm: %q", got)
	}
}

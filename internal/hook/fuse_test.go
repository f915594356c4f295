package hook

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFuseDeadlineFailsClosed: an armed fuse that has not decided by the
// call's deadline answers with its deny, which ends the turn and names
// the deadline, and records the halt; silence would allow the call.
// Unarmed, the same deadline is silence.
func TestFuseDeadlineFailsClosed(t *testing.T) {
	defer func(q time.Duration) { quietBudget = q }(quietBudget)
	quietBudget = time.Millisecond
	root := t.TempDir()
	home := filepath.Join(root, "home")
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CLAUDE_PROJECT_DIR", root)
	transcript := filepath.Join(root, "s.jsonl")
	var b strings.Builder
	for i := range 20000 {
		b.WriteString(`{"type":"assistant","timestamp":"2026-12-01T10:00:00.000Z","message":{"id":"m` + string(rune('a'+i%26)) +
			`","model":"claude-opus-4-6","usage":{"input_tokens":1,"cache_read_input_tokens":1000,"cache_creation_input_tokens":0,"output_tokens":1}}}` + "\n")
	}
	os.WriteFile(transcript, []byte(b.String()), 0o644)
	payload, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s1", "transcript_path": transcript,
		"cwd": root, "tool_name": "Bash", "tool_input": map[string]string{"command": "ls"}})

	t.Setenv("MUTHUR_CONTEXT_BUDGET_SPEND", "")
	var out bytes.Buffer
	Run(bytes.NewReader(payload), &out, &bytes.Buffer{}, nil)
	if out.Len() != 0 {
		t.Fatalf("unarmed: %s", out.Bytes())
	}

	t.Setenv("MUTHUR_CONTEXT_BUDGET_SPEND", "$5")
	out.Reset()
	Run(bytes.NewReader(payload), &out, &bytes.Buffer{}, nil)
	var got struct {
		Continue *bool  `json:"continue"`
		Stop     string `json:"stopReason"`
		Specific struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("armed, past the deadline: %v: %q", err, out.Bytes())
	}
	if got.Specific.Decision != "deny" || got.Continue == nil || *got.Continue || !strings.Contains(got.Specific.Reason, "its deadline passed") {
		t.Fatalf("armed, past the deadline: %s", out.Bytes())
	}
	halts, _ := filepath.Glob(filepath.Join(home, ".claude", "context-budget", "fuse", "*", "s1.halts"))
	if len(halts) != 1 {
		t.Fatalf("no halt recorded: %v", halts)
	}
	if data, _ := os.ReadFile(halts[0]); !strings.Contains(string(data), `"reason":"fuse"`) {
		t.Errorf("halts: %s", data)
	}
}

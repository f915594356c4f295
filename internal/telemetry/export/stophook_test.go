package export_test

// The Stop hook (context-budget ledger record), run in process through
// cli.Run, with the exporter built onto PATH. These tests live here, not
// in package cli, so that the cli's test binary, which some tests run as
// the hook to measure its memory, does not link the test collector.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/cli"
	"github.com/muthur/context-budget/internal/spool"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/telemetry/export"
	"github.com/muthur/context-budget/internal/telemetry/otlptest"
	"github.com/muthur/context-budget/ledger"
)

// teamProject makes a git work tree whose user.email is set, a session
// that ran in its sub-folder, and a notice in the session's spool, as
// the hook leaves it. It returns the tree's top and the Stop hook's
// payload.
func teamProject(t testing.TB) (top string, payload []byte) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	top = t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "feat/team"}, {"config", "user.email", "ada@example.com"},
		{"remote", "add", "origin", "https://github.com/team/widget.git"}} {
		if out, err := exec.Command("git", append([]string{"-C", top}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	sub := filepath.Join(top, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	tr := filepath.Join(t.TempDir(), "s1.jsonl")
	rec := func(m map[string]any) string {
		m["sessionId"], m["cwd"], m["gitBranch"] = "s1", sub, "feat/team"
		data, _ := json.Marshal(m)
		return string(data) + "\n"
	}
	lines := rec(map[string]any{"type": "user", "timestamp": "2026-12-01T10:00:00Z", "message": map[string]any{"role": "user", "content": "build it"}}) +
		rec(map[string]any{"type": "assistant", "timestamp": "2026-12-01T10:00:01Z", "message": map[string]any{"id": "m1", "model": "claude-opus-4-6",
			"stop_reason": "end_turn", "content": []any{map[string]any{"type": "text", "text": "done"}},
			"usage": map[string]any{"input_tokens": 10, "cache_creation_input_tokens": 1000, "cache_read_input_tokens": 0, "output_tokens": 5}}})
	if err := os.WriteFile(tr, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	n := ledger.Notice{Level: "warn", At: "2026-12-01T10:00:02Z", Reading: 251_000, Warn: 250_000, Pause: 305_000, Model: "claude-opus-4-6"}
	if err := spool.Notice(state.Dir(sub), "s1", n); err != nil {
		t.Fatal(err)
	}
	payload, _ = json.Marshal(map[string]string{"hook_event_name": "Stop", "session_id": "s1", "transcript_path": tr, "cwd": sub,
		"last_assistant_message": "done"})
	return top, payload
}

// stop runs the Stop hook in process, and reads the row it wrote.
func stop(t testing.TB, root string, payload []byte) ledger.Row {
	t.Helper()
	var out, errs bytes.Buffer
	if code := cli.Run([]string{"ledger", "record"}, bytes.NewReader(payload), &out, &errs); code != 0 || out.Len() > 0 || errs.Len() > 0 {
		t.Fatalf("ledger record: exit %d, %q, %q", code, out.String(), errs.String())
	}
	r, ok := ledger.Find(root, "s1")
	if !ok {
		t.Fatal("no row written")
	}
	return r
}

// TestStopHookTeamFields: the row names the author, the session's folder
// relative to the work tree (no absolute path), and the notices of its
// spool.
func TestStopHookTeamFields(t *testing.T) {
	top, payload := teamProject(t)
	sub := filepath.Join(top, "sub")
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", sub)
	r := stop(t, sub, payload)
	if r.Author != "ada@example.com" || r.Cwd != "sub" || len(r.Notices) != 1 || r.Notices[0].Reading != 251_000 || r.Notices[0].Level != "warn" {
		t.Errorf("row: author %q, cwd %q, notices %+v; want ada@example.com, sub and the warn notice", r.Author, r.Cwd, r.Notices)
	}
	data, _ := ledger.Marshal(&r)
	if bytes.Contains(data, []byte(top)) {
		t.Errorf("the row names the absolute path %s:\n%s", top, data)
	}
}

// buildExporter builds context-budget-telemetry onto PATH, where the
// Stop hook looks for it when it is not beside the running program.
func buildExporter(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the exporter")
	}
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "github.com/muthur/context-budget/cmd/context-budget-telemetry").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// settingsEnv writes a settings file whose env block turns telemetry on
// towards endpoint.
func settingsEnv(t testing.TB, name, endpoint string) {
	t.Helper()
	env := map[string]any{"env": map[string]string{"CLAUDE_CODE_ENABLE_TELEMETRY": "1", "OTEL_LOGS_EXPORTER": "otlp",
		"OTEL_METRICS_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf", "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint}}
	data, _ := json.Marshal(env)
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStopHookTelemetry: with the user's settings turning telemetry on,
// the Stop hook writes the row, then the exporter sends the notice and
// the session; a collector that is down fails and one that never
// answers takes the deadline's path, the row written either way; the
// project's own settings turn nothing on.
func TestStopHookTelemetry(t *testing.T) {
	buildExporter(t)
	for _, tc := range []struct {
		name     string
		endpoint func(t *testing.T) (string, *otlptest.Receiver)
		path     string
	}{
		{"up", func(t *testing.T) (string, *otlptest.Receiver) { r := otlptest.NewHTTP(t); return r.Endpoint, r }, export.PathSent},
		{"down", func(t *testing.T) (string, *otlptest.Receiver) { return otlptest.Down(t), nil }, export.PathFailed},
		{"black hole", func(t *testing.T) (string, *otlptest.Receiver) { return otlptest.BlackHole(t), nil }, export.PathDeadline},
	} {
		t.Run(tc.name, func(t *testing.T) {
			top, payload := teamProject(t)
			sub := filepath.Join(top, "sub")
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("CLAUDE_PROJECT_DIR", sub)
			endpoint, rcv := tc.endpoint(t)
			settingsEnv(t, filepath.Join(home, ".claude", "settings.json"), endpoint)
			// The hook's own environment names another collector: it is
			// not read (a project's settings reach it).
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", otlptest.Down(t))
			if r := stop(t, sub, payload); r.Total.Responses != 1 {
				t.Fatalf("row %+v", r)
			}
			sent, ok := export.ReadSent(state.Dir(sub), "s1")
			if !ok || sent.Last.Path != tc.path {
				t.Fatalf(".sent %+v, want the %s path", sent, tc.path)
			}
			if rcv == nil {
				return
			}
			var names []string
			for _, l := range rcv.Logs() {
				names = append(names, l.EventName)
				if l.Attrs["session.id"] != "s1" || l.Attrs["vcs.repository.name"] != "widget" || l.Attrs["vcs.ref.head.name"] != "feat/team" {
					t.Errorf("record %v: want session s1 of widget on feat/team", l)
				}
			}
			if strings.Join(names, " ") != export.EventNotice+" "+export.EventSession {
				t.Errorf("events %q, want the notice and the session", names)
			}
		})
	}
}

// TestStopHookTelemetryProjectOnly: telemetry turned on by a project's
// committed settings alone sends nothing, and starts no exporter.
func TestStopHookTelemetryProjectOnly(t *testing.T) {
	buildExporter(t)
	top, payload := teamProject(t)
	sub := filepath.Join(top, "sub")
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", sub)
	rcv := otlptest.NewHTTP(t)
	settingsEnv(t, filepath.Join(sub, ".claude", "settings.json"), rcv.Endpoint)
	stop(t, sub, payload)
	if _, ok := export.ReadSent(state.Dir(sub), "s1"); ok {
		t.Error("an exporter ran")
	}
	if rcv.WaitFor(200*time.Millisecond, func(l []otlptest.Log, p []otlptest.Point) bool { return len(l)+len(p) > 0 }) {
		t.Errorf("received %v", rcv.Logs())
	}
}

// BenchmarkStopHookTelemetry times the Stop hook (in process, the
// exporter its child) with telemetry off, on towards a collector on
// 127.0.0.1, and towards one that is down and one that never answers:
// what the team's telemetry costs the end of each turn (make bench).
func BenchmarkStopHookTelemetry(b *testing.B) {
	buildExporter(b)
	for _, bc := range []struct {
		name     string
		endpoint func(testing.TB) string
	}{
		{"off", nil},
		{"on", func(t testing.TB) string { return otlptest.NewHTTP(t).Endpoint }},
		{"down", otlptest.Down},
		{"black hole", otlptest.BlackHole},
	} {
		b.Run(bc.name, func(b *testing.B) {
			top, payload := teamProject(b)
			sub := filepath.Join(top, "sub")
			home := b.TempDir()
			b.Setenv("HOME", home)
			b.Setenv("CLAUDE_PROJECT_DIR", sub)
			if bc.endpoint != nil {
				settingsEnv(b, filepath.Join(home, ".claude", "settings.json"), bc.endpoint(b))
			}
			for b.Loop() {
				// A new notice each stop, so that each has something to send.
				spool.Notice(state.Dir(sub), "s1", ledger.Notice{Level: "warn", At: "2026-12-01T10:00:02Z", Reading: 251_000, Warn: 250_000, Pause: 305_000})
				stop(b, sub, payload)
			}
		})
	}
}

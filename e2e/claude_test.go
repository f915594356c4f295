package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Session is one headless run of the CLI against a mock.
type Session struct {
	Mock *Mock
	// Home is the run's HOME, with .claude/settings.json registering the
	// hooks; Project is its working directory and project root.
	Home, Project  string
	Stdout, Stderr string
	Err            error
	Elapsed        time.Duration
}

// Options shape a run.
type Options struct {
	// Env is put in the settings file's env block, which the CLI passes to
	// hooks: where a user sets the tuning variables.
	Env map[string]string
	// Hooks maps a hook event to the context-budget arguments registered
	// for it; nil means {"PostToolUse": "hook"}. A Stop hook for the
	// ledger goes here.
	Hooks map[string]string
	// Model is the --model argument; claude-opus-4-6 when empty.
	Model string
	// Prompt is the -p prompt.
	Prompt string
}

// runTimeout bounds one run of the CLI; a healthy one takes seconds, but
// the suite must finish on a loaded CI machine too.
const runTimeout = 2 * time.Minute

// runClaude runs the CLI once, headless, against a mock answering from s,
// with our hook registered in user-scope settings. It returns once the
// CLI has exited; the caller asserts on what the mock received.
func runClaude(t *testing.T, s Script, o Options) *Session {
	t.Helper()
	needClaude(t)
	m := NewMock(s)
	t.Cleanup(m.Close)
	dir := t.TempDir()
	sess := &Session{Mock: m, Home: filepath.Join(dir, "home"), Project: filepath.Join(dir, "project")}
	for _, d := range []string{filepath.Join(sess.Home, ".claude"), sess.Project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeSettings(t, sess.Home, o)
	model := o.Model
	if model == "" {
		model = "claude-opus-4-6"
	}
	prompt := o.Prompt
	if prompt == "" {
		prompt = "Run the e2e script."
	}
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, claudeBin, "-p", prompt,
		"--permission-mode", "bypassPermissions", "--model", model)
	cmd.Dir = sess.Project
	// A clean environment: nothing of the developer's shell (API keys,
	// MUTHUR_* tuning, a real HOME) leaks into the run.
	cmd.Env = []string{
		"HOME=" + sess.Home,
		"PATH=" + os.Getenv("PATH"),
		"TMPDIR=" + dir,
		"IS_SANDBOX=1", // we may run as root
		"ANTHROPIC_BASE_URL=" + m.URL(),
		"ANTHROPIC_API_KEY=sk-ant-e2e-not-a-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	sess.Err = cmd.Run()
	sess.Elapsed = time.Since(start)
	sess.Stdout, sess.Stderr = stdout.String(), stderr.String()
	t.Logf("claude ran %v (%d requests): err=%v", sess.Elapsed.Round(time.Millisecond), len(m.Requests()), sess.Err)
	if sess.Err != nil {
		t.Logf("stdout: %s\nstderr: %s", sess.Stdout, sess.Stderr)
	}
	return sess
}

// writeSettings registers our hooks, for every tool, in user-scope
// settings, with o.Env as the settings' env.
//
// TODO(install): once `context-budget install --scope user` is on main,
// register through it instead, so this suite covers the installer too.
func writeSettings(t *testing.T, home string, o Options) {
	t.Helper()
	hooks := o.Hooks
	if hooks == nil {
		hooks = map[string]string{"PostToolUse": "hook"}
	}
	events := map[string]any{}
	for event, args := range hooks {
		entry := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": hookCommand(args)}}}
		if event == "PostToolUse" || event == "PreToolUse" {
			entry["matcher"] = "*"
		}
		events[event] = []any{entry}
	}
	settings := map[string]any{"hooks": events}
	if len(o.Env) > 0 {
		settings["env"] = o.Env
	}
	b, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".claude", "settings.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// hookCommand is the settings' command for our binary with args. With
// CONTEXT_BUDGET_E2E_HOOK_WRAP set, hookWrap runs instead and gets the
// binary's path as $1.
func hookCommand(args string) string {
	if hookWrap != "" {
		return hookWrap + " " + hookBin + " " + args
	}
	return hookBin + " " + args
}

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	// Model is the --model argument; claude-opus-4-6 when empty.
	Model string
	// Prompt is the -p prompt.
	Prompt string
	// Project, when set, is the project folder to run in (kept across
	// runs), instead of a new one.
	Project string
	// Prepare, when set, runs after install and before the CLI starts:
	// to add settings of a scenario's own.
	Prepare func(s *Session)
	// Args are more arguments for the CLI (--output-format json).
	Args []string
}

// runTimeout bounds one run of the CLI: it tells a run that hangs from
// one that is slow; a healthy one takes seconds, many times that on a
// loaded machine. make test's timeout bounds the suite.
const runTimeout = 5 * time.Minute

// runClaude runs the CLI once, headless, against a mock answering from s,
// with our hooks installed in user-scope settings. It returns once the
// CLI has exited; the caller asserts on what the mock received.
func runClaude(t *testing.T, s Script, o Options) *Session {
	t.Helper()
	needClaude(t)
	m := NewMock(s)
	t.Cleanup(m.Close)
	dir := t.TempDir()
	sess := &Session{Mock: m, Home: filepath.Join(dir, "home"), Project: filepath.Join(dir, "project")}
	if o.Project != "" {
		sess.Project = o.Project
	}
	for _, d := range []string{filepath.Join(sess.Home, ".claude"), sess.Project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	install(t, sess, o.Env)
	if o.Prepare != nil {
		o.Prepare(sess)
	}
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
	cmd := exec.CommandContext(ctx, claudeBin, append([]string{"-p", prompt,
		"--permission-mode", "bypassPermissions", "--model", model}, o.Args...)...)
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
	runCmd(t, m, sess, cmd)
	return sess
}

// runCmd runs cmd, a claude -p run against m, and keeps its output,
// error and time in sess; the output goes to the log when it failed.
func runCmd(t *testing.T, m *Mock, sess *Session, cmd *exec.Cmd) {
	t.Helper()
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
}

// install registers our hooks the way a user does, with `context-budget
// install --scope user` (the PostToolUse hook and the ledger's Stop hook,
// by the binary's absolute path, and the skills), then puts env in the
// settings' env block.
func install(t *testing.T, sess *Session, env map[string]string) {
	t.Helper()
	cmd := exec.Command(hookBin, "install", "--scope", "user")
	cmd.Dir = sess.Project
	cmd.Env = []string{"HOME=" + sess.Home, "PATH=" + os.Getenv("PATH")}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("context-budget install --scope user: %v\n%s", err, out)
	}
	name := filepath.Join(sess.Home, ".claude", "settings.json")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var settings map[string]any
	if err := json.Unmarshal(data, &settings); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(env) > 0 {
		settings["env"] = env
	}
	if hookWrap != "" {
		wrapHooks(settings)
	}
	data, err = json.MarshalIndent(settings, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// wrapHooks puts hookWrap in front of every hook command of ours: the
// script then runs in the hook's place with the binary's path as $1.
func wrapHooks(settings map[string]any) {
	events, _ := settings["hooks"].(map[string]any)
	for _, groups := range events {
		list, _ := groups.([]any)
		for _, g := range list {
			group, _ := g.(map[string]any)
			hooks, _ := group["hooks"].([]any)
			for _, h := range hooks {
				hook, _ := h.(map[string]any)
				if c, ok := hook["command"].(string); ok && strings.HasPrefix(c, hookBin+" ") {
					hook["command"] = hookWrap + " " + c
				}
			}
		}
	}
}

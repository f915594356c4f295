//go:build linux

package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/muthur/context-budget/skills"
)

// Hostile files in the places the program reads (issue 20, classes 1 and
// 5): a FIFO, a link to /dev/zero, a 1 GB sparse file and a folder, each
// where a transcript, a side file of the state folder, a ledger row, the
// ledger's mean, a settings file or a skill is read. Every command that
// reads the place runs as a real process and must answer on its own, in
// bounded memory; the hook must exit 0 with nothing on stderr. Before
// every such read went through reading.Open/ReadFile, a FIFO or /dev/zero
// at any of the side files, the ledger row or the settings hung the call
// (and /dev/zero grew it by hundreds of MB a second), and the sparse file
// was read whole.
//
// The hook's calls get ten minutes to decide here (testDeadlines), so
// its deadline cannot hide a read that blocks: such a call does not
// answer by hostileDeadline and fails the test.

// hostileDeadline is far above what any of these calls costs on a loaded
// machine (replay reads the 1 GB sparse transcript whole: a second of
// CPU), and below the ten minutes a held hook call would wait.
const hostileDeadline = 3 * time.Minute

// hostileRSS bounds the test binary's peak memory as one command (the
// real binary is smaller): a file read whole is 1 GB here.
const hostileRSS = 256 << 20

// hostileKinds make each kind of hostile file at path.
var hostileKinds = []struct {
	name string
	make func(path string) error
}{
	{"fifo", func(path string) error { return syscall.Mkfifo(path, 0o644) }},
	{"devzero", func(path string) error { return os.Symlink("/dev/zero", path) }},
	{"sparse", func(path string) error {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		return f.Truncate(1 << 30)
	}},
	{"dir", func(path string) error { return os.Mkdir(path, 0o755) }},
}

// hostileTargets are the places, relative to the project root (the
// transcript lives in the config folder's projects/, where doctor looks),
// and the commands that read each.
var hostileTargets = []struct {
	name, path string
	cmds       []string
}{
	{"transcript", "config/projects/proj-x/s1.jsonl", []string{"hook", "statusline", "lines", "ledger-record", "ledger-backfill", "doctor", "replay"}},
	{"state record", "tmp/context-budget/s1", []string{"hook", "statusline", "lines", "doctor"}},
	{"line cache", "tmp/context-budget/s1.line", []string{"hook", "statusline", "lines", "doctor"}},
	{"window", "tmp/context-budget/s1.window", []string{"hook", "statusline", "lines", "doctor"}},
	{"calls", "tmp/context-budget/s1.calls", []string{"hook"}},
	{"orientation", "tmp/context-budget/s1.orientation", []string{"hook", "lines"}},
	{"orientation search", "tmp/context-budget/s1.orientation-search", []string{"hook", "lines"}},
	{"operator", "tmp/context-budget/s1.operator", []string{"hook", "ledger-record"}},
	{"ledger row", ".claude/costs/sessions/evil.json", []string{"hook", "statusline", "lines", "ledger-list", "doctor"}},
	{"ledger mean", "tmp/context-budget/ledger-mean.json", []string{"hook", "statusline", "lines"}},
	{"project settings", ".claude/settings.json", []string{"install-project", "doctor"}},
	{"user settings", "config/settings.json", []string{"install-user", "doctor"}},
	{"skill", ".claude/skills/" + skills.All()[0].Name + "/SKILL.md", []string{"install-project", "doctor"}},
	// Issue 31, class 5: the cold spell and the start's record were read
	// whole (a /dev/zero link reached ~290 MiB, a FIFO stalled each
	// prompt a second); the price files are read by the one reader too.
	{"cold spell", "tmp/context-budget/s1.cold", []string{"prompt", "statusline", "lines"}},
	{"resume", "tmp/context-budget/s1.resume", []string{"prompt-fork", "start"}},
	{"project prices", ".claude/context-budget/prices.toml", []string{"hook", "lines", "ledger-backfill", "doctor"}},
	{"user prices", "xdg/context-budget/prices.toml", []string{"hook", "lines", "ledger-backfill", "doctor"}},
}

func TestHostileFIFO(t *testing.T)    { testHostile(t, "fifo") }
func TestHostileDevZero(t *testing.T) { testHostile(t, "devzero") }
func TestHostileSparse(t *testing.T)  { testHostile(t, "sparse") }
func TestHostileDir(t *testing.T)     { testHostile(t, "dir") }

// TestHostileBaseline: without a hostile file the project's hook fires
// its priced warning, so the hostile runs exercise the priced path.
func TestHostileBaseline(t *testing.T) {
	root := hostileProject(t)
	out, _ := runHostile(t, root, "hook")
	if !strings.Contains(out, "priced") {
		t.Fatalf("no priced notice: %q", out)
	}
	// The session is idle for months: the prompt hook takes the cold
	// path, which reads the spell file, and stops the prompt.
	if out, _ := runHostile(t, root, "prompt"); !strings.Contains(out, `"decision":"block"`) {
		t.Fatalf("no cold stop: %q", out)
	}
}

func testHostile(t *testing.T, kind string) {
	if testing.Short() {
		t.Skip("runs many processes")
	}
	var mk func(string) error
	for _, k := range hostileKinds {
		if k.name == kind {
			mk = k.make
		}
	}
	for _, target := range hostileTargets {
		t.Run(target.name, func(t *testing.T) {
			root := hostileProject(t)
			path := filepath.Join(root, target.path)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			os.Remove(path)
			if err := mk(path); err != nil {
				t.Fatal(err)
			}
			for _, cmd := range target.cmds {
				t.Run(cmd, func(t *testing.T) { runHostile(t, root, cmd) })
			}
		})
	}
}

// hostileProject writes a project whose session s1 has climbed to 185k
// on a 1M window: past the priced warn line, so the hook's priced
// recompute runs and reads every side file, the ledger and its mean.
func hostileProject(t *testing.T) string {
	root := t.TempDir()
	var b strings.Builder
	for i := 0; 40_000+2_500*i <= 185_000; i++ {
		ctx := 40_000 + 2_500*i
		fmt.Fprintf(&b, `{"type":"assistant","sessionId":"s1","cwd":%q,"timestamp":"2026-01-01T10:00:00.000Z","message":{"id":"msg_%d","model":"claude-opus-4-6","role":"assistant","content":[{"type":"tool_use","id":"toolu_%d","name":"Bash","input":{"command":"true"}}],"stop_reason":"tool_use","usage":{"input_tokens":0,"cache_read_input_tokens":%d,"cache_creation_input_tokens":2500,"output_tokens":120}}}`+"\n",
			root, i, i, ctx-2_500)
		fmt.Fprintf(&b, `{"type":"user","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":"ok"}]}}`+"\n", i)
	}
	for _, dir := range []string{"config/projects/proj-x", "home", "xdg", ".claude/costs/sessions", "tmp/context-budget"} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "config/projects/proj-x/s1.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// runHostile runs one command against the project at root.
func runHostile(t *testing.T, root, name string) (stdout, stderr string) {
	transcript := filepath.Join(root, "config/projects/proj-x/s1.jsonl")
	var args []string
	var stdin string
	payload := func(event string) string {
		return fmt.Sprintf(`{"hook_event_name":%q,"session_id":"s1","transcript_path":%q,"cwd":%q}`, event, transcript, root)
	}
	switch name {
	case "hook":
		args, stdin = []string{"hook"}, payload("PostToolUse")
	case "statusline":
		args = []string{"statusline"}
		stdin = fmt.Sprintf(`{"session_id":"s1","transcript_path":%q,"cwd":%q,"model":{"id":"claude-opus-4-6"},"context_window":{"context_window_size":1000000}}`, transcript, root)
	case "prompt":
		args = []string{"hook"}
		stdin = fmt.Sprintf(`{"hook_event_name":"UserPromptSubmit","session_id":"s1","transcript_path":%q,"cwd":%q,"prompt":"go on"}`, transcript, root)
	case "prompt-fork":
		// A fork's transcript is not written until its first response:
		// the prompt hook reads what the start recorded (.resume).
		args = []string{"hook"}
		stdin = fmt.Sprintf(`{"hook_event_name":"UserPromptSubmit","session_id":"s1","transcript_path":%q,"cwd":%q,"prompt":"go on"}`, transcript+".fork", root)
	case "start":
		args = []string{"hook"}
		stdin = fmt.Sprintf(`{"hook_event_name":"SessionStart","session_id":"s1","transcript_path":%q,"cwd":%q,"source":"resume"}`, transcript, root)
	case "lines":
		args = []string{"lines", "--transcript", transcript}
	case "ledger-record":
		args, stdin = []string{"ledger", "record"}, payload("Stop")
	case "ledger-backfill":
		args = []string{"ledger", "record", "--transcript", transcript, "--project", root}
	case "ledger-list":
		args = []string{"ledger"}
	case "doctor":
		args = []string{"doctor"}
	case "replay":
		args = []string{"replay", transcript}
	case "install-project":
		args = []string{"install", "--scope", "project"}
	case "install-user":
		args = []string{"install", "--scope", "user"}
	default:
		t.Fatalf("unknown command %s", name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hostileDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), testOnlyRunMain+"=1",
		"HOME="+filepath.Join(root, "home"), "XDG_CONFIG_HOME="+filepath.Join(root, "xdg"),
		"CLAUDE_CONFIG_DIR="+filepath.Join(root, "config"), "CLAUDE_PROJECT_DIR="+root,
		"CLAUDE_CODE_PROJECT_DIR_NAME=proj-x", "MUTHUR_CONTEXT_BUDGET_WINDOW=1000000")
	cmd.Stdin = strings.NewReader(stdin)
	var outBuf, errBuf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outBuf, &errBuf
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("%s did not answer within %v: a read was held", strings.Join(args, " "), hostileDeadline)
	}
	// A child's Maxrss starts from its parent's peak (Go starts children
	// with CLONE_VM, and Linux folds the parent's peak in at exec): only a
	// figure past this test process's own peak is the child's.
	var self syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss*1024 > hostileRSS && ru.Maxrss > self.Maxrss {
		t.Errorf("%s: peak memory %d MiB", strings.Join(args, " "), ru.Maxrss>>10)
	}
	stdout, stderr = outBuf.String(), errBuf.String()
	if strings.Contains(stderr, "panic") {
		t.Fatalf("%s panicked: %s", strings.Join(args, " "), stderr)
	}
	if args[0] == "hook" && (err != nil || stderr != "") {
		t.Errorf("hook: %v, stderr %q", err, stderr)
	}
	t.Logf("%s: %v in %v", strings.Join(args, " "), err, took.Round(time.Millisecond))
	return stdout, stderr
}

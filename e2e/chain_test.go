package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/muthur/context-budget/ledger"
)

// The relay chain (design §15) with the real CLI: context-budget run
// starts `claude -p` sessions against one mock, whose Main queue the
// sessions consume in turn, and the mock plays the relay skill: Bash
// calls that commit the work, write and commit a hand-over summary under
// .claude/context-budget/relay/, and a last answer with the take line.

// chainOptions shape a chain run.
type chainOptions struct {
	// Env goes in the user settings' env block, as for runClaude.
	Env map[string]string
	// Flags are the runner's own, before the prompt.
	Flags []string
	// Environ is added to the runner's environment.
	Environ []string
	// Prompt is the first session's; "Run the e2e script." when empty.
	Prompt string
	// Project, when set, is the project folder (made a git repository).
	Project string
	// Text drops --json: the runner prints its table.
	Text bool
	// During, when set, runs while the runner runs.
	During func(t *testing.T, cmd *exec.Cmd, m *Mock)
	// Files are written into the project before its first commit, and
	// committed with it.
	Files map[string]string
	// NoCommit makes the project a repository on main with no commit.
	NoCommit bool
}

// chainRun is one run of context-budget run.
type chainRun struct {
	*Session
	// Code is the runner's exit status.
	Code int
	// Summary is what --json printed.
	Summary chainSummary
	// Calls are the claude invocations the wrapper saw in this run, in
	// order.
	Calls []claudeCall
	// AllCalls are those of every run against the same folders so far.
	AllCalls []claudeCall

	dir, calls string
	environ    []string
	text       bool
}

// chainSummary is the runner's --json object.
type chainSummary struct {
	Chain       string   `json:"chain"`
	Stopped     string   `json:"stopped"`
	Exit        int      `json:"exit"`
	CostUSD     float64  `json:"cost_usd"`
	EarlierUSD  float64  `json:"earlier_usd"`
	ForecastUSD *float64 `json:"forecast_usd"`
	Sessions    []struct {
		SessionID  string  `json:"session_id"`
		Place      int     `json:"place"`
		Prompt     string  `json:"prompt"`
		HandedOver bool    `json:"handed_over"`
		Ended      string  `json:"ended"`
		CostUSD    float64 `json:"cost_usd"`
		Counted    []struct {
			SessionID string  `json:"session_id"`
			CostUSD   float64 `json:"cost_usd"`
		} `json:"counted"`
		Retried   []string `json:"retried"`
		Exit      int      `json:"exit"`
		Note      string   `json:"note"`
		LastWords string   `json:"last_words"`
	} `json:"sessions"`
	Next []string `json:"next"`
}

// claudeCall is one start of claude: its arguments and environment.
type claudeCall struct {
	Args []string
	Env  map[string]string
}

// arg returns the value after flag among the call's arguments.
func (c claudeCall) arg(flag string) string {
	for i, a := range c.Args {
		if a == flag && i+1 < len(c.Args) {
			return c.Args[i+1]
		}
	}
	return ""
}

// chainTimeout bounds a whole chain: it tells a chain that hangs from one
// that is slow, far above what a chain of a few sessions takes on a
// loaded two-core machine (under a minute quiet); make test's timeout
// bounds the suite.
const chainTimeout = 10 * time.Minute

// runChain runs `context-budget run --json --claude WRAPPER PROMPT --
// --permission-mode bypassPermissions --model claude-opus-4-6` in a git
// repository on main, with the hooks and skills installed in the user's
// settings, against a mock answering from sc. The wrapper records each
// claude start's arguments and environment, then runs the real CLI.
func runChain(t *testing.T, sc Script, o chainOptions) *chainRun {
	t.Helper()
	needClaude(t)
	m := NewMock(sc)
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
	for name, data := range o.Files {
		p := filepath.Join(sess.Project, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if o.NoCommit {
		gitIn(t, sess.Project, "init", "-q", "-b", "main")
	} else {
		gitRepo(t, sess.Project)
	}
	calls := filepath.Join(dir, "calls")
	wrapper := claudeWrapper(t, dir, calls)
	prompt := o.Prompt
	if prompt == "" {
		prompt = "Run the e2e script."
	}
	args := []string{"run", "--claude", wrapper}
	if !o.Text {
		args = append(args, "--json")
	}
	args = append(append(args, o.Flags...), prompt, "--", "--permission-mode", "bypassPermissions", "--model", "claude-opus-4-6")
	// The runner's own folder on PATH: a stop's next command runs as it
	// is printed, context-budget first.
	run := &chainRun{Session: sess, dir: dir, calls: calls, text: o.Text, environ: append([]string{
		"HOME=" + sess.Home,
		"PATH=" + filepath.Dir(hookBin) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"TMPDIR=" + dir,
		"IS_SANDBOX=1",
		"ANTHROPIC_BASE_URL=" + m.URL(),
		"ANTHROPIC_API_KEY=sk-ant-e2e-not-a-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}, o.Environ...)}
	return run.invoke(t, hookBin, args, o.During)
}

// carryOn runs a stop's next command as printed, in the same folders
// against the same mock, and returns that run.
func (prev *chainRun) carryOn(t *testing.T, argv []string, during func(t *testing.T, cmd *exec.Cmd, m *Mock)) *chainRun {
	t.Helper()
	if len(argv) < 2 || argv[0] != "context-budget" {
		t.Fatalf("the next command %q does not run context-budget", argv)
	}
	next := &chainRun{Session: &Session{Mock: prev.Mock, Home: prev.Home, Project: prev.Project},
		dir: prev.dir, calls: prev.calls, environ: prev.environ, text: !slices.Contains(argv, "--json")}
	return next.invoke(t, argv[0], argv[1:], during)
}

// invoke runs the runner with args and reads what it left.
func (run *chainRun) invoke(t *testing.T, prog string, args []string, during func(t *testing.T, cmd *exec.Cmd, m *Mock)) *chainRun {
	t.Helper()
	before := len(readCalls(t, run.calls))
	if prog == "context-budget" {
		// Found on the run's PATH, as a person's shell finds it.
		path, err := lookPathIn(prog, run.environ)
		if err != nil {
			t.Fatal(err)
		}
		prog = path
	}
	ctx, cancel := context.WithTimeout(context.Background(), chainTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = run.Project
	cmd.Env = run.environ
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if during != nil {
		during(t, cmd, run.Mock)
	}
	run.Err = cmd.Wait()
	run.Elapsed = time.Since(start)
	run.Stdout, run.Stderr = stdout.String(), stderr.String()
	run.Code = cmd.ProcessState.ExitCode()
	run.AllCalls = readCalls(t, run.calls)
	run.Calls = run.AllCalls[before:]
	t.Logf("context-budget %s: exit %d after %v, %d claude starts, %d requests\nstderr:\n%s\nstdout:\n%s",
		strings.Join(args[:min(len(args), 4)], " "), run.Code, run.Elapsed.Round(time.Millisecond), len(run.Calls), len(run.Mock.Requests()), run.Stderr, run.Stdout)
	if !run.text {
		if err := json.Unmarshal(stdout.Bytes(), &run.Summary); err != nil {
			t.Fatalf("stdout is not the one JSON object --json prints: %v", err)
		}
	}
	return run
}

// lookPathIn finds prog on the PATH of an environment list.
func lookPathIn(prog string, environ []string) (string, error) {
	for _, kv := range environ {
		if path, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, d := range filepath.SplitList(path) {
				if fi, err := os.Stat(filepath.Join(d, prog)); err == nil && fi.Mode()&0o111 != 0 {
					return filepath.Join(d, prog), nil
				}
			}
		}
	}
	return "", fmt.Errorf("no %s on the run's PATH", prog)
}

// gitRepo makes dir a git repository on main with one commit, and an
// identity for the sessions' commits and the runner's.
func gitRepo(t *testing.T, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("e2e\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"config", "user.name", "e2e"},
		{"config", "user.email", "e2e@example.invalid"},
		{"add", "-A"},
		{"commit", "-q", "-m", "init"},
	} {
		gitIn(t, dir, args...)
	}
}

// gitIn runs git in dir and returns its output.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// claudeWrapper writes a script that records its arguments and
// environment in a new file under calls, then becomes the real CLI (exec:
// a signal to it reaches claude).
func claudeWrapper(t *testing.T, dir, calls string) string {
	t.Helper()
	if err := os.MkdirAll(calls, 0o755); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "claude-wrapper")
	script := fmt.Sprintf(`#!/bin/sh
f=%q/$(date +%%s%%N)-$$
{ for a in "$@"; do printf 'arg %%s\n' "$a"; done; env | sed 's/^/env /'; } > "$f"
exec %q "$@"
`, calls, claudeBin)
	if err := os.WriteFile(name, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return name
}

// readCalls reads what the wrapper recorded, in order of the starts.
func readCalls(t *testing.T, dir string) []claudeCall {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	var out []claudeCall
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		c := claudeCall{Env: map[string]string{}}
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			if a, ok := strings.CutPrefix(line, "arg "); ok {
				c.Args = append(c.Args, a)
			} else if kv, ok := strings.CutPrefix(line, "env "); ok {
				k, v, _ := strings.Cut(kv, "=")
				c.Env[k] = v
			}
		}
		out = append(out, c)
	}
	return out
}

// workTurn commits a line of work: progress outside .claude/.
func workTurn(reading int64, tag string) Turn {
	return turn(reading, bash(fmt.Sprintf("echo %s >> work.txt && git add work.txt && git commit -qm 'Work %s'", tag, tag)))
}

// handOverTurns play the relay skill's hand-over: write and commit the
// summary, then end with the take line.
func handOverTurns(reading int64, tag string) []Turn {
	summary := ".claude/context-budget/relay/2026-11-20T1015" + tag + "Z.md"
	return []Turn{
		turn(reading, bash(fmt.Sprintf("mkdir -p .claude/context-budget/relay && printf '# Hand-over %s\\n\\n## Next step\\n\\nCarry on.\\n' > %s && git add .claude/context-budget/relay && git commit -qm 'Hand over %s'", tag, summary, tag))),
		turn(reading+1_000, text("Handed over for the context budget; the successor starts with: /relay take main")),
	}
}

// takeLine is how the CLI sends a successor's first prompt to the model:
// the relay skill's command envelope, its arguments the take line's.
const takeLine = "<command-name>/relay</command-name>\\n<command-args>take main</command-args>"

// requestOfTurn returns the body of the main request the mock answered
// with turn i of its script.
func requestOfTurn(t *testing.T, s *Session, i int) string {
	t.Helper()
	for _, r := range s.Mock.Requests() {
		if r.Kind == KindMain && r.Turn == i {
			return string(r.Body)
		}
	}
	t.Fatalf("no request was answered with turn %d\n%s", i, s.Timeline())
	return ""
}

// checkChainRecorded asserts what every chain leaves: each session's
// ledger row names the chain and its place; each row was committed alone
// as "ledger: row of <id>", before the next session's work; nothing is
// left uncommitted; and each claude start ran under its session's id
// and place, with the runner's own flags.
func checkChainRecorded(t *testing.T, run *chainRun) {
	t.Helper()
	sum := run.Summary
	if len(run.Calls) != len(sum.Sessions) {
		t.Fatalf("%d claude starts for %d sessions", len(run.Calls), len(sum.Sessions))
	}
	rows := ledgerRows(t, run.Project)
	for i, s := range sum.Sessions {
		c := run.Calls[i]
		id := c.arg("--session-id")
		if id == "" {
			id = c.arg("--resume")
		}
		if id != s.SessionID {
			t.Errorf("session %d ran as %q, the summary names %q", s.Place, id, s.SessionID)
		}
		if got := c.Env["CONTEXT_BUDGET_CHAIN"]; got != sum.Chain {
			t.Errorf("session %d's CONTEXT_BUDGET_CHAIN = %q, want %q", s.Place, got, sum.Chain)
		}
		if got := c.Env["CONTEXT_BUDGET_CHAIN_PLACE"]; got != fmt.Sprint(s.Place) {
			t.Errorf("session %d's CONTEXT_BUDGET_CHAIN_PLACE = %q", s.Place, got)
		}
		if c.arg("--output-format") != "stream-json" || c.Args[0] != "-p" || c.Args[len(c.Args)-1] != s.Prompt {
			t.Errorf("session %d's arguments: %q", s.Place, c.Args)
		}
		row, ok := rows[s.SessionID]
		if !ok {
			t.Errorf("session %d (%s) has no ledger row", s.Place, s.SessionID)
			continue
		}
		if row.Chain != sum.Chain || row.Place != s.Place {
			t.Errorf("session %d's row: chain %q place %d, want %q %d", s.Place, row.Chain, row.Place, sum.Chain, s.Place)
		}
		if files := rowCommit(t, run.Project, s.SessionID); len(files) != 1 || !strings.HasSuffix(files[0], s.SessionID+".json") {
			t.Errorf("the commit of session %d's row holds %q, want the row alone", s.Place, files)
		}
	}
	// The test's own look: an fsmonitor the agent planted stays off.
	if st := gitIn(t, run.Project, "-c", "core.fsmonitor=false", "status", "--porcelain"); st != "" {
		t.Errorf("left uncommitted:\n%s", st)
	}
}

// rowCommit returns the files of the newest commit "ledger: row of <id>".
func rowCommit(t *testing.T, dir, id string) []string {
	t.Helper()
	hash, _, _ := strings.Cut(gitIn(t, dir, "log", "--format=%H", "--fixed-strings", "--grep", "ledger: row of "+id), "\n")
	if hash == "" {
		t.Errorf("no commit of session %s's row", id)
		return nil
	}
	return strings.Fields(gitIn(t, dir, "show", "--format=", "--name-only", hash))
}

// subjects are the branch's commit subjects, newest first.
func subjects(t *testing.T, dir string) []string {
	return strings.Split(gitIn(t, dir, "log", "--format=%s"), "\n")
}

// ledgerRows reads the project's ledger, by session id.
func ledgerRows(t *testing.T, dir string) map[string]ledger.Row {
	t.Helper()
	rd, err := ledger.NewReader(ledger.Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := rd.ReadAll()
	if err != nil || rd.Skipped > 0 {
		t.Fatalf("ledger: %d skipped, err %v", rd.Skipped, err)
	}
	out := map[string]ledger.Row{}
	for _, r := range rows {
		out[r.SessionID] = r
	}
	return out
}

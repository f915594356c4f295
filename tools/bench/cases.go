package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/tools/gen"
)

// bins are the programs the benchmark runs, in one folder: the hook's
// program and the full one beside it, as `make build` leaves them, and
// the floor.
type bins struct {
	hook, cli, floor string
}

// build compiles context-budget and context-budget-cli as `make build`
// does, and the floor, with the go command in $GO (the Makefile passes
// its own) or on PATH. The hook's program runs context-budget-cli, found
// beside it, for what it does not answer itself (a recompute of the
// lines, a cold prompt): without it the warm-up never fills the line
// cache.
func build(cache, gobin string) (bins, error) {
	dir := filepath.Join(cache, "bin")
	b := bins{
		hook:  filepath.Join(dir, "context-budget"),
		cli:   filepath.Join(dir, "context-budget-cli"),
		floor: filepath.Join(dir, "floor"),
	}
	for _, p := range []struct{ out, pkg string }{
		{b.hook, "./cmd/context-budget"},
		{b.cli, "./cmd/context-budget-cli"},
		{b.floor, "./tools/bench/floor"},
	} {
		cmd := exec.Command(gobin, "build", "-trimpath", "-ldflags", "-s -w", "-o", p.out, p.pkg)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return b, fmt.Errorf("go build %s: %v", p.pkg, err)
		}
		// Every program starts from pages read by its exec (evict).
		if err := evict(p.out); err != nil {
			return b, err
		}
	}
	return b, nil
}

// benchCase is one row of the table: a transcript, a payload and the
// environment the program runs with.
type benchCase struct {
	name    string
	size    int64 // the transcript's nominal size
	file    string
	res     gen.Result
	args    []string // the subcommand; nil means "hook"
	budget  float64  // the largest median ratio to the floor allowed; 0: none
	payload func(run int) []byte
	env     []string
	notice  bool   // the hook is expected to print a notice
	output  string // when set, stdout must contain it (the status line's)
	before  func() // runs before each run of the program, untimed
	// lineCache is the session's line cache, when the call answers from
	// it: the warm-up must leave it there, and no measured call may
	// change it (a change is a recompute, not the call the row names).
	lineCache string
	setup     func(c benchCase, hook string) error
}

func (c benchCase) argv() []string {
	if c.args == nil {
		return []string{"hook"}
	}
	return c.args
}

const seed = 1

// endBelow keeps the transcripts' final reading well under the warn line,
// wherever pricing or the window puts it: the common case is silence.
const endBelow = 100_000

// The hold budgets of design §11: the largest median ratio to the floor
// of each call, and the peak memory of every call. A case with no budget
// (behind a 3 MB tool result, the status line of a cold cache) is
// measured and reported without a verdict on its ratio.
const (
	budgetCommon  = 1.35 // the common hook call (priced, a line-cache hit) and the status line
	budgetNotice  = 1.6  // a notice that fires, a UserPromptSubmit on a warm cache
	budgetUnarmed = 1.25 // PreToolUse with the spend fuse unarmed
	budgetArmed   = 1.5  // PreToolUse with the fuse armed, at 100 MB
	maxRSS        = 8 << 20
)

// planEnv is what a case needs to build its payloads: the cache folder
// and the temporary project the programs run in.
type planEnv struct {
	cache, project string
}

// plan lists every case: the hook's and the status line's per size, then
// the warm prompt's and the spend fuse's on one size.
func plan(pe planEnv, sizes []int64) ([]benchCase, error) {
	var cases []benchCase
	for _, part := range []func(planEnv, []int64) ([]benchCase, error){hookCases, promptCases, fuseCases} {
		more, err := part(pe, sizes)
		if err != nil {
			return nil, err
		}
		cases = append(cases, more...)
	}
	return cases, nil
}

// hookCases are, per size: the common hook call (priced, a line-cache
// hit) with a small payload and with a 1 MB tool_response, the status
// line for the same session, with the prompt cache warm and gone cold,
// the hook behind a 3 MB tool result, and a call where a notice fires.
func hookCases(pe planEnv, sizes []int64) ([]benchCase, error) {
	cache, project := pe.cache, pe.project
	dir := state.Dir(project)
	env := cleanEnv()
	big := bigResponse(1 << 20)
	var cases []benchCase
	for _, size := range sizes {
		sz := gen.FormatSize(size)
		call, callRes, err := transcript(cache, size, gen.TailCall)
		if err != nil {
			return nil, err
		}
		huge, hugeRes, err := transcript(cache, size, gen.TailBehindHuge)
		if err != nil {
			return nil, err
		}
		session := "bench-" + sz
		status := fixed(statusPayload(session, call, project))
		cases = append(cases,
			benchCase{name: "hook: common (priced, cache hit)", size: size, file: call, res: callRes, env: env, budget: budgetCommon,
				payload: calls(session, call, project, callRes.ToolUseID, nil), lineCache: lines.FileName(dir, session), setup: warmHook},
			benchCase{name: "hook: common, 1 MB tool_response", size: size, file: call, res: callRes, env: env, budget: budgetCommon,
				payload: calls(session, call, project, callRes.ToolUseID, big), lineCache: lines.FileName(dir, session), setup: warmHook},
			// The generated responses are days old, so by its clock every
			// status line call would find the prompt cache cold and take
			// the cold branch (the whole entry decoded to price the
			// re-write). A session at work has a warm cache: the first row
			// measures that, with the cold check off, which skips the same
			// branch; the second measures an idle session's bar. Only
			// priced lines, the line cache's, name the relay's dollars.
			benchCase{name: "statusline (same session)", size: size, file: call, res: callRes, budget: budgetCommon,
				env: append(cleanEnv(), "MUTHUR_CONTEXT_BUDGET_COLD=off"), args: []string{"statusline"}, output: " · relay: ",
				payload: status, lineCache: lines.FileName(dir, session), setup: warmStatusline(session, call, project, callRes.ToolUseID)},
			benchCase{name: "statusline, the cache gone cold", size: size, file: call, res: callRes, env: env,
				args: []string{"statusline"}, output: " · cold ",
				payload: status, lineCache: lines.FileName(dir, session), setup: warmStatusline(session, call, project, callRes.ToolUseID)},
			benchCase{name: "hook: behind a 3 MB tool result", size: size, file: huge, res: hugeRes, env: env,
				payload: calls(session+"-huge", huge, project, hugeRes.ToolUseID, nil), lineCache: lines.FileName(dir, session+"-huge"), setup: warmHook},
		)
		// The notice case: a warn line under the reading, and the
		// session's once-per-climb record removed before each run
		// (untimed), so every run takes the lock, records the level and
		// prints the warning. The line cache and the operator's answer
		// stay warm, as in a session.
		noticeSession := "bench-notice-" + sz
		record := filepath.Join(dir, noticeSession)
		cases = append(cases, benchCase{name: "hook: a notice fires", size: size, file: call, res: callRes, notice: true, budget: budgetNotice,
			env:       append(cleanEnv(), "MUTHUR_CONTEXT_BUDGET_WARN=10000"),
			payload:   calls(noticeSession, call, project, callRes.ToolUseID, nil),
			before:    func() { os.Remove(record) },
			lineCache: lines.FileName(dir, noticeSession),
			setup:     warmHook,
		})
	}
	return cases, nil
}

// warmHook runs the hook on the case's payload until the session's line
// cache stops changing, untimed: the first call of a session has
// context-budget-cli price the transcript, and the cases measure the
// calls after it. A line cache that never appears is an error: every
// measured call would be a miss.
func warmHook(c benchCase, hook string) error {
	var last stamp
	for i := range 400 {
		if c.before != nil {
			c.before()
		}
		if _, _, _, err := exe(hook, c.argv(), c.payload(0), c.env); err != nil {
			return err
		}
		now := stampOf(c.lineCache)
		if i > 0 && now.exists() && now.same(last) {
			return nil
		}
		last = now
	}
	if !last.exists() {
		return fmt.Errorf("no line cache %s after 400 calls: is context-budget-cli beside the hook?", c.lineCache)
	}
	return fmt.Errorf("the line cache %s was still changing after 400 calls", c.lineCache)
}

// stamp is the state of a file that any write to it changes: a rewrite in
// place moves its time or size, an atomic one its identity. nil: no file.
type stamp struct{ fi os.FileInfo }

func stampOf(name string) stamp {
	fi, err := os.Stat(name)
	if err != nil {
		return stamp{}
	}
	return stamp{fi}
}

func (s stamp) exists() bool { return s.fi != nil }

func (s stamp) same(t stamp) bool {
	if s.fi == nil || t.fi == nil {
		return s.fi == t.fi
	}
	return os.SameFile(s.fi, t.fi) && s.fi.Size() == t.fi.Size() && s.fi.ModTime().Equal(t.fi.ModTime())
}

// warmStatusline lets the status line record the window once (which
// changes the line cache's key), then lets the hook recompute, as in a
// session: the status line is then measured answering from a cache that
// matches.
func warmStatusline(session, file, project, toolUseID string) func(benchCase, string) error {
	return func(c benchCase, hook string) error {
		if _, _, _, err := exe(hook, c.argv(), c.payload(0), c.env); err != nil {
			return err
		}
		hc := c
		hc.args = nil
		hc.payload = fixed(payload(session, file, project, toolUseID, nil))
		return warmHook(hc, hook)
	}
}

// statusPayload is Claude Code's status line input for the session.
func statusPayload(session, file, project string) []byte {
	p := map[string]any{
		"session_id":      session,
		"transcript_path": file,
		"cwd":             project,
		"model":           map[string]any{"id": "claude-opus-4-6", "display_name": "Opus 4.6"},
		"workspace":       map[string]any{"current_dir": project, "project_dir": project},
		"version":         "2.1.332",
		"cost":            map[string]any{"total_cost_usd": 1.23, "total_duration_ms": 60000},
		"context_window": map[string]any{"context_window_size": 200000, "used_percentage": 40, "remaining_percentage": 60,
			"current_usage": map[string]any{"input_tokens": 10, "output_tokens": 500, "cache_creation_input_tokens": 2000, "cache_read_input_tokens": 60000}},
	}
	out, _ := json.Marshal(p)
	return out
}

func fixed(p []byte) func(int) []byte { return func(int) []byte { return p } }

// cleanEnv is the environment without the variables that tune the hook.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "MUTHUR_") || strings.HasPrefix(kv, "CLAUDE_") || strings.HasPrefix(kv, "GODEBUG=") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// payload is a PostToolUse payload as Claude Code sends it for a Bash call.
func payload(session, file, cwd, toolUseID string, stdout []byte) []byte {
	return payloadOf(session, file, cwd, toolUseID, stdout, "go test ./...")
}

// calls is the hook's payloads for a session's successive tool calls:
// each run another command, as in a session. The same call every run
// would be a loop, which the spend fuse halts (MUTHUR_CONTEXT_BUDGET_LOOP):
// not the common case these rows measure.
func calls(session, file, cwd, toolUseID string, stdout []byte) func(int) []byte {
	return func(run int) []byte {
		return payloadOf(session, file, cwd, toolUseID, stdout, "go test ./... -run Case"+strconv.Itoa(run))
	}
}

func payloadOf(session, file, cwd, toolUseID string, stdout []byte, command string) []byte {
	p := map[string]any{
		"session_id":      session,
		"transcript_path": file,
		"cwd":             cwd,
		"permission_mode": "bypassPermissions",
		"hook_event_name": "PostToolUse",
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": command, "description": "Run the tests"},
		"tool_response":   map[string]any{"stdout": string(stdout), "stderr": "", "interrupted": false, "isImage": false},
		"tool_use_id":     toolUseID,
		"duration_ms":     1834,
	}
	out, _ := json.Marshal(p)
	return out
}

// bigResponse is about n bytes of test-log text for a tool_response.
func bigResponse(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "=== RUN   TestTail/case_%d\n--- PASS: TestTail/case_%d (0.00s)\n    tail_test.go:%d: got \"%d\", want \"%d\"\t✓\n", i, i, i%400, i, i)
	}
	return b.Bytes()[:n]
}

// transcript returns the cached transcript for size and tail, writing it
// first if the cache has none from this version of the generator.
func transcript(cache string, size int64, tail gen.Tail) (string, gen.Result, error) {
	v, err := genVersion()
	if err != nil {
		return "", gen.Result{}, err
	}
	kind := "call"
	if tail == gen.TailBehindHuge {
		kind = "huge"
	}
	base := filepath.Join(cache, fmt.Sprintf("%s-%s-seed%d-%s", gen.FormatSize(size), kind, seed, v))
	file, meta := base+".jsonl", base+".json"
	var res gen.Result
	if data, err := os.ReadFile(meta); err == nil && json.Unmarshal(data, &res) == nil {
		if fi, err := os.Stat(file); err == nil && fi.Size() == res.Bytes {
			return file, res, nil
		}
	}
	// Old versions of the same size and tail are stale: remove them so the
	// cache does not grow by a gigabyte per generator change.
	old, _ := filepath.Glob(filepath.Join(cache, fmt.Sprintf("%s-%s-seed%d-*", gen.FormatSize(size), kind, seed)))
	for _, o := range old {
		os.Remove(o)
	}
	fmt.Fprintf(os.Stderr, "bench: writing %s (once; reused by later runs)\n", file)
	start := time.Now()
	f, err := os.Create(file)
	if err != nil {
		return "", res, err
	}
	res, err = gen.Write(f, gen.Options{Size: size, Seed: seed, Tail: tail, EndBelow: endBelow})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(file)
		return "", res, err
	}
	data, _ := json.Marshal(res)
	if err := os.WriteFile(meta, data, 0o644); err != nil {
		return "", res, err
	}
	fmt.Fprintf(os.Stderr, "bench: wrote %d MB in %v\n", res.Bytes>>20, time.Since(start).Round(time.Millisecond))
	return file, res, nil
}

// genVersion is a hash of the generator's source, so that a change to it
// regenerates the cached transcripts.
func genVersion() (string, error) {
	files, err := filepath.Glob(filepath.Join("tools", "gen", "*.go"))
	if err != nil || len(files) == 0 {
		return "", fmt.Errorf("run from the repository root: no tools/gen/*.go here")
	}
	h := sha256.New()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			return "", err
		}
		io.Copy(h, f)
		f.Close()
	}
	return hex.EncodeToString(h.Sum(nil))[:10], nil
}

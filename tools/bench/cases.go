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

	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/tools/gen"
)

// build compiles the hook as `make build` does, and the floor, with the go
// command in $GO (the Makefile passes its own) or on PATH.
func build(cache string) (hook, floor string, err error) {
	bin := filepath.Join(cache, "bin")
	hook = filepath.Join(bin, "context-budget")
	floor = filepath.Join(bin, "floor")
	gobin := os.Getenv("GO")
	if gobin == "" {
		gobin = "go"
	}
	for _, b := range []struct{ out, pkg string }{{hook, "./cmd/context-budget"}, {floor, "./tools/bench/floor"}} {
		cmd := exec.Command(gobin, "build", "-trimpath", "-ldflags", "-s -w", "-o", b.out, b.pkg)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return "", "", fmt.Errorf("go build %s: %v", b.pkg, err)
		}
		// Both programs start from pages read by their exec (evict).
		if err := evict(b.out); err != nil {
			return "", "", err
		}
	}
	return hook, floor, nil
}

// benchCase is one row of the table: a transcript, a payload and the
// environment the program runs with.
type benchCase struct {
	name    string
	size    int64 // the transcript's nominal size
	file    string
	res     gen.Result
	args    []string // the subcommand; nil means "hook"
	budget  float64  // the largest median ratio to the floor allowed
	payload func(run int) []byte
	env     []string
	notice  bool   // the hook is expected to print a notice
	output  string // when set, stdout must contain it (the status line's)
	before  func() // runs before each run of the program, untimed
	setup   func(c benchCase, bin string) error
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

// The budgets (design §11, as raised by issue 16): the common hook call
// and the status line, and the dearer cases.
const (
	budgetCommon = 1.25
	budgetDear   = 1.40
)

// planEnv is what a case needs to build its payloads: the cache folder
// and the temporary project the programs run in.
type planEnv struct {
	cache, project string
}

// extension adds cases to the run; see register.
type extension struct {
	name  string
	cases func(planEnv, []int64) ([]benchCase, error)
}

var extensions []extension

// register adds the cases of another part of the program (the spend
// fuse's PreToolUse check, the cold cache's UserPromptSubmit) to the run,
// from an init function in a file of their own in this folder. A case
// whose name matches a slot fills it.
func register(name string, cases func(planEnv, []int64) ([]benchCase, error)) {
	extensions = append(extensions, extension{name, cases})
}

// slot is a case the table reserves a row for until a registered case of
// the same name measures it, so that a missing measurement shows.
type slot struct {
	name   string
	budget float64
}

var slots = []slot{
	{"PreToolUse fuse check, unarmed", 1.10},
	{"PreToolUse fuse, armed (100 MB)", 1.5},
	{"UserPromptSubmit, warm", 1.25},
}

// plan lists the cases of every registered part, in the order they
// registered (this file's first: Go runs the init functions of a
// package's files in the order of their names).
func plan(cache, project string, sizes []int64) ([]benchCase, error) {
	var cases []benchCase
	for _, e := range extensions {
		more, err := e.cases(planEnv{cache: cache, project: project}, sizes)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", e.name, err)
		}
		cases = append(cases, more...)
	}
	return cases, nil
}

func init() { register("hook and status line", hookCases) }

// hookCases are issue 16's: per size, the common hook call (priced, a
// line cache hit) with a small payload and with a 1 MB tool_response, the
// status line for the same session, the hook behind a 3 MB tool result,
// and a call where a notice fires.
func hookCases(pe planEnv, sizes []int64) ([]benchCase, error) {
	cache, project := pe.cache, pe.project
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
		cases = append(cases,
			benchCase{name: "hook: common (priced, cache hit)", size: size, file: call, res: callRes, env: env, budget: budgetCommon,
				payload: calls(session, call, project, callRes.ToolUseID, nil), setup: warmHook},
			benchCase{name: "hook: common, 1 MB tool_response", size: size, file: call, res: callRes, env: env, budget: budgetCommon,
				payload: calls(session, call, project, callRes.ToolUseID, big), setup: warmHook},
			// The generated responses are days old, so by its clock every
			// status line call would find the prompt cache cold and take
			// the cold branch (the whole entry decoded to price the
			// re-write). A session at work has a warm cache: the first row
			// measures that, with the cold check off, which skips the same
			// branch; the second measures an idle session's bar.
			benchCase{name: "statusline (same session)", size: size, file: call, res: callRes, budget: budgetCommon,
				env: append(cleanEnv(), "MUTHUR_CONTEXT_BUDGET_COLD=off"), args: []string{"statusline"}, output: " · relay ",
				payload: fixed(statusPayload(session, call, project)), setup: warmStatusline(session, call, project, callRes.ToolUseID)},
			benchCase{name: "statusline, the cache gone cold", size: size, file: call, res: callRes, env: env, budget: budgetDear,
				args: []string{"statusline"}, output: " · cold ",
				payload: fixed(statusPayload(session, call, project)), setup: warmStatusline(session, call, project, callRes.ToolUseID)},
			benchCase{name: "hook: behind a 3 MB tool result", size: size, file: huge, res: hugeRes, env: env, budget: budgetDear,
				payload: calls(session+"-huge", huge, project, hugeRes.ToolUseID, nil), setup: warmHook},
		)
		// The notice case: a warn line under the reading, and the
		// session's once-per-climb record removed before each run
		// (untimed), so every run takes the lock, records the level and
		// prints the warning. The line cache and the operator's answer
		// stay warm, as in a session.
		noticeSession := "bench-notice-" + sz
		record := filepath.Join(state.Dir(project), noticeSession)
		cases = append(cases, benchCase{name: "hook: a notice fires", size: size, file: call, res: callRes, notice: true, budget: budgetDear,
			env:     append(cleanEnv(), "MUTHUR_CONTEXT_BUDGET_WARN=10000"),
			payload: calls(noticeSession, call, project, callRes.ToolUseID, nil),
			before:  func() { os.Remove(record) },
			setup:   warmHook,
		})
	}
	return cases, nil
}

// warmHook runs the program on the case's payload until the session's
// line cache stops changing, untimed: the first call of a session prices
// the transcript (in slices, when a call's share is bounded), and the
// cases measure the calls after it.
func warmHook(c benchCase, bin string) error {
	var last string
	for i := range 400 {
		if c.before != nil {
			c.before()
		}
		if _, _, _, err := exe(bin, c.argv(), c.payload(0), c.env); err != nil {
			return err
		}
		now := lineCacheStamp(c)
		if i > 0 && now == last && now != "" {
			return nil
		}
		last = now
	}
	return fmt.Errorf("%s: the line cache was still changing after 400 calls", c.name)
}

// lineCacheStamp names the state of every line cache in the project.
func lineCacheStamp(c benchCase) string {
	var p struct {
		Cwd string `json:"cwd"`
	}
	json.Unmarshal(c.payload(0), &p)
	files, _ := filepath.Glob(filepath.Join(state.Dir(p.Cwd), "*"+state.LineSuffix))
	var b strings.Builder
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			fmt.Fprintf(&b, "%s %d %d|", f, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return b.String()
}

// warmStatusline lets the status line record the window once (which
// changes the line cache's key), then lets the hook recompute, as in a
// session: the status line is then measured answering from a cache that
// matches.
func warmStatusline(session, file, project, toolUseID string) func(benchCase, string) error {
	return func(c benchCase, bin string) error {
		if _, _, _, err := exe(bin, c.argv(), c.payload(0), c.env); err != nil {
			return err
		}
		hc := c
		hc.args = nil
		hc.payload = fixed(payload(session, file, project, toolUseID, nil))
		return warmHook(hc, bin)
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

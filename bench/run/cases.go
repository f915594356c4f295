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
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/gen"
	"github.com/muthur/context-budget/internal/state"
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
	for _, b := range []struct{ out, pkg string }{{hook, "./cmd/context-budget"}, {floor, "./bench/floor"}} {
		cmd := exec.Command(gobin, "build", "-trimpath", "-ldflags", "-s -w", "-o", b.out, b.pkg)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return "", "", fmt.Errorf("go build %s: %v", b.pkg, err)
		}
	}
	return hook, floor, nil
}

// benchCase is one row of the table: a transcript, a payload and the
// environment the hook runs with.
type benchCase struct {
	name    string
	size    int64 // the transcript's nominal size
	file    string
	res     gen.Result
	payload func(run int) []byte
	env     []string
	notice  bool    // the hook is expected to print a notice
	before  func()  // runs before each hook run, untimed
	limit   float64 // the case's own hook/floor budget; 0 is maxRatio
}

const seed = 1

// endBelow keeps the transcripts' final reading well under the warn line,
// wherever pricing or the window puts it: the common case is silence.
const endBelow = 100_000

// plan lists the cases: per size, the common tail with a small payload and
// with a 1 MB tool_response, and the tail behind a 3 MB tool result; then
// a run where a notice fires.
func plan(cache, project string, sizes []int64) ([]benchCase, error) {
	env := cleanEnv()
	big := bigResponse(1 << 20)
	var cases []benchCase
	for _, size := range sizes {
		for _, tail := range []gen.Tail{gen.TailCall, gen.TailBehindHuge} {
			file, res, err := transcript(cache, size, tail)
			if err != nil {
				return nil, err
			}
			name := "tail: call"
			if tail == gen.TailBehindHuge {
				name = "tail: behind 3 MB result"
			}
			cases = append(cases, benchCase{name: name, size: size, file: file, res: res, env: env,
				payload: fixed(payload("bench", file, project, res.ToolUseID, nil))})
			if tail == gen.TailCall {
				cases = append(cases, benchCase{name: "tail: call, 1 MB tool_response", size: size, file: file, res: res, env: env,
					payload: fixed(payload("bench", file, project, res.ToolUseID, big))})
			}
		}
	}
	// The notice case: a warn line under the reading, and the session's
	// once-per-climb record removed before each run (untimed), so every
	// run takes the lock, records the level and prints the warning. The
	// line cache and the operator's answer stay warm, as in a session.
	first := cases[0]
	session := "bench-notice"
	record := filepath.Join(state.Dir(project), session)
	cases = append(cases, benchCase{name: "notice fires", size: first.size, file: first.file, res: first.res, notice: true,
		env:     append(cleanEnv(), "MUTHUR_CONTEXT_BUDGET_WARN=10000"),
		payload: fixed(payload(session, first.file, project, first.res.ToolUseID, nil)),
		before:  func() { os.Remove(record) },
	})
	cold, err := coldCases(cache, project, cases)
	if err != nil {
		return nil, err
	}
	cases = append(cases, cold...)
	fc, err := fuseCases(project, cases)
	if err != nil {
		return nil, err
	}
	return append(cases, fc...), nil
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
	p := map[string]any{
		"session_id":      session,
		"transcript_path": file,
		"cwd":             cwd,
		"permission_mode": "bypassPermissions",
		"hook_event_name": "PostToolUse",
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": "go test ./...", "description": "Run the tests"},
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
	files, err := filepath.Glob(filepath.Join("internal", "gen", "*.go"))
	if err != nil || len(files) == 0 {
		return "", fmt.Errorf("run from the repository root: no internal/gen/*.go here")
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

package main

import (
	"encoding/json"
	"fmt"
	"github.com/muthur/context-budget/tools/gen"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The spend fuse's two rows: PreToolUse with no cap (the environment and
// one file tried: within 1.10× the floor, loop detection at its default
// included), and PreToolUse with a dollar cap armed on the largest
// transcript, one new response appended (untimed) before each run, so the
// tally resumes from its offset and reads just that (within 1.5×).

// The budgets of the unarmed and the armed PreToolUse call.
const (
	unarmedRatio = 1.10
	armedRatio   = 1.5
)

func init() { register("spend fuse", fuseCases) }

// fuseCases returns the fuse's rows, on the 100 MB transcript (the
// budget's size), else the largest.
func fuseCases(pe planEnv, sizes []int64) ([]benchCase, error) {
	if len(sizes) == 0 {
		return nil, nil
	}
	size := sizes[len(sizes)-1]
	for _, s := range sizes {
		if s == 100<<20 {
			size = s
		}
	}
	file, res, err := transcript(pe.cache, size, gen.TailCall)
	if err != nil {
		return nil, err
	}
	unarmed := benchCase{name: "PreToolUse fuse check, unarmed", size: size, file: file, res: res,
		env: cleanEnv(), budget: unarmedRatio,
		payload: fixed(prePayload("bench-fuse-unarmed", file, pe.project))}
	// The armed case reads its own copy, which grows by a response per run.
	armedFile := filepath.Join(pe.project, "fuse-armed.jsonl")
	if err := copyFile(file, armedFile); err != nil {
		return nil, err
	}
	n := 0
	armed := benchCase{name: "PreToolUse fuse, armed (" + strings.Replace(gen.FormatSize(size), "MB", " MB", 1) + ")", size: size, file: armedFile, res: res,
		env:     append(cleanEnv(), "MUTHUR_CONTEXT_BUDGET_SPEND=1000000usd"),
		budget:  armedRatio,
		payload: fixed(prePayload("bench-fuse-armed", armedFile, pe.project)),
		before: func() {
			n++
			appendResponse(armedFile, n)
		},
	}
	return []benchCase{unarmed, armed}, nil
}

// prePayload is a PreToolUse payload for a Bash call.
func prePayload(session, file, cwd string) []byte {
	p := map[string]any{
		"session_id":      session,
		"transcript_path": file,
		"cwd":             cwd,
		"permission_mode": "bypassPermissions",
		"hook_event_name": "PreToolUse",
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": "go test ./...", "description": "Run the tests"},
		"tool_use_id":     "toolu_bench_fuse",
	}
	out, _ := json.Marshal(p)
	return out
}

// appendResponse adds one response of the session's own.
func appendResponse(name string, n int) {
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, `{"type":"assistant","isSidechain":false,"timestamp":"2026-12-01T10:00:00.000Z","message":{"id":"msg_bench_fuse_%d","model":"claude-opus-4-6","role":"assistant","content":[{"type":"text","text":"step %d"}],"usage":{"input_tokens":6,"cache_creation_input_tokens":2000,"cache_read_input_tokens":90000,"output_tokens":120}}}`+"\n", n, n)
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

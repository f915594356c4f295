package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/muthur/context-budget/tools/gen"
)

// fuseCases are the spend fuse's two rows (design §13): PreToolUse with
// no cap (the environment and one file tried, loop detection at its
// default included), and PreToolUse with a dollar cap armed, one new
// response appended (untimed) before each run, so the tally resumes from
// its offset and reads just that. Both run on the 100 MB transcript, else
// the largest; the armed call's budget holds at 100 MB, so on another
// size it has none.
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
		env: cleanEnv(), budget: budgetUnarmed,
		payload: fixed(prePayload("bench-fuse-unarmed", file, pe.project))}
	// The armed case reads its own copy, which grows by a response per run.
	armedFile := filepath.Join(pe.project, "fuse-armed.jsonl")
	if err := copyFile(file, armedFile, 0o644); err != nil {
		return nil, err
	}
	armedBudget := 0.0
	if size == 100<<20 {
		armedBudget = budgetArmed
	}
	n := 0
	armed := benchCase{name: "PreToolUse fuse, armed", size: size, file: armedFile, res: res,
		env:     append(cleanEnv(), "MUTHUR_CONTEXT_BUDGET_SPEND=1000000usd"),
		budget:  armedBudget,
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

// copyFile copies the file at from to to, created with perm.
func copyFile(from, to string, perm os.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

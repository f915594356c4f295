package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// The spend fuse's two rows: PreToolUse with no cap (the environment and
// one file tried: within 1.10× the floor, loop detection at its default
// included), and PreToolUse with a dollar cap armed on the largest
// transcript, one new response appended (untimed) before each run, so the
// tally resumes from its offset and reads just that (within 1.5×).

// unarmedRatio is the budget of the unarmed PreToolUse call.
const unarmedRatio = 1.10

// fuseCases returns the fuse's rows, on the largest transcript of cases.
func fuseCases(project string, cases []benchCase) ([]benchCase, error) {
	var big benchCase
	for _, c := range cases {
		if c.size > big.size && !c.notice {
			big = c
		}
	}
	if big.file == "" {
		return nil, nil
	}
	unarmed := benchCase{name: "fuse: PreToolUse, unarmed", size: big.size, file: big.file, res: big.res,
		env: cleanEnv(), limit: unarmedRatio,
		payload: fixed(prePayload("bench-fuse-unarmed", big.file, project))}
	// The armed case reads its own copy, which grows by a response per run.
	armedFile := filepath.Join(project, "fuse-armed.jsonl")
	if err := copyFile(big.file, armedFile); err != nil {
		return nil, err
	}
	n := 0
	armed := benchCase{name: "fuse: PreToolUse, $ cap armed", size: big.size, file: armedFile, res: big.res,
		env:     append(cleanEnv(), "MUTHUR_CONTEXT_BUDGET_SPEND=1000000usd"),
		payload: fixed(prePayload("bench-fuse-armed", armedFile, project)),
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

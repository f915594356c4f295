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
// no cap (the environment and one file tried), and PreToolUse with a
// dollar cap armed, one new response appended (untimed) before each run
// holding the call the payload names, as Claude Code writes it before the
// hook runs, so the tally resumes from its offset, reads just that and
// finds the call's own record there. Both run on the 100 MB transcript,
// else the largest; the armed call's budget holds at 100 MB, so on
// another size it has none. The fuse's state goes in a config folder of
// the bench's own, never the user's.
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
	config := "CLAUDE_CONFIG_DIR=" + filepath.Join(pe.project, "claude-config")
	unarmed := benchCase{name: "PreToolUse fuse check, unarmed", size: size, file: file, res: res,
		env: append(cleanEnv(), config), budget: budgetUnarmed,
		payload: fixed(prePayload("bench-fuse-unarmed", file, pe.project, "toolu_bench_fuse"))}
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
		env:    append(cleanEnv(), config, "MUTHUR_CONTEXT_BUDGET_SPEND=1000000usd"),
		budget: armedBudget,
		// The payload is made before the run's response is appended: it
		// names that response's call.
		payload: func(int) []byte {
			return prePayload("bench-fuse-armed", armedFile, pe.project, fmt.Sprintf("toolu_bench_fuse_%d", n+1))
		},
		before: func() {
			n++
			appendResponse(armedFile, n)
		},
	}
	// The rows time the common armed call, a tally resumed from its
	// offset: calls before them catch it up with the 100 MB it starts
	// behind, as a cap armed from the CLI does at once.
	armed.setup = func(c benchCase, hook string) error {
		for range 20 {
			c.before()
			_, out, _, err := exe(hook, c.argv(), c.payload(0), c.env)
			if err != nil || len(out) == 0 {
				return err
			}
		}
		return fmt.Errorf("the tally never caught up")
	}
	return []benchCase{unarmed, armed}, nil
}

// prePayload is a PreToolUse payload for a Bash call.
func prePayload(session, file, cwd, toolUseID string) []byte {
	p := map[string]any{
		"session_id":      session,
		"transcript_path": file,
		"cwd":             cwd,
		"permission_mode": "bypassPermissions",
		"hook_event_name": "PreToolUse",
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": "go test ./...", "description": "Run the tests"},
		"tool_use_id":     toolUseID,
	}
	out, _ := json.Marshal(p)
	return out
}

// appendResponse adds one response of the session's own: a Bash call,
// toolu_bench_fuse_<n>.
func appendResponse(name string, n int) {
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, `{"type":"assistant","isSidechain":false,"timestamp":"2026-12-01T10:00:00.000Z","message":{"id":"msg_bench_fuse_%d","model":"claude-opus-4-6","role":"assistant","content":[{"type":"tool_use","id":"toolu_bench_fuse_%d","name":"Bash","input":{"command":"go test ./...","description":"Run the tests"}}],"usage":{"input_tokens":6,"cache_creation_input_tokens":2000,"cache_read_input_tokens":90000,"output_tokens":120}}}`+"\n", n, n)
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

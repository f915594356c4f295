package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strconv"
	"time"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/sibling"
)

// FullName is the program that holds every command: the commands typed
// by hand, and what the hook's program hands over.
const FullName = "context-budget-cli"

// InstallCommand installs the programs: what a message names when one is
// missing.
const InstallCommand = "go install github.com/muthur/context-budget/cmd/...@latest"

// FullProgram finds context-budget-cli: beside this program, else on
// PATH.
func FullProgram() (string, error) {
	p, err := sibling.Find(FullName)
	if err != nil {
		return "", errors.New(FullName + " is not installed beside context-budget nor on PATH")
	}
	return p, nil
}

// Exec reaches the full program by running context-budget-cli: what the
// program Claude Code starts on every call does.
type Exec struct{}

// handOverBound bounds a handed-over call: the full program keeps the
// hook's own deadlines, and this only ends a child that does not.
const handOverBound = 10 * time.Second

// Recompute runs `context-budget-cli recompute` for call, ending it at
// deadline.
func (Exec) Recompute(call *lines.Call, deadline time.Time) error {
	prog, err := FullProgram()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, "recompute", "--root", call.Root, "--session", call.ID,
		"--transcript", call.Transcript, "--reading", strconv.FormatInt(call.Reading, 10),
		"--requested-model", call.RequestedModel, "--cc-version", call.Version, "--model", call.Model, "--time", call.Sources.Time)
	return cmd.Run()
}

// HandOver runs `context-budget-cli hook` with p as its payload and this
// call's streams.
func (Exec) HandOver(p reading.Payload, stdout, stderr io.Writer) {
	prog, err := FullProgram()
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), handOverBound)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, "hook")
	cmd.Stdin = bytes.NewReader(PayloadJSON(p))
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Run()
}

// PayloadJSON is p as a hook payload again, with the fields this program
// reads.
func PayloadJSON(p reading.Payload) []byte {
	m := map[string]any{}
	put := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	put("hook_event_name", p.HookEventName)
	put("session_id", p.SessionID)
	put("transcript_path", p.TranscriptPath)
	put("cwd", p.Cwd)
	put("agent_id", p.AgentID)
	put("tool_use_id", p.ToolUseID)
	put("tool_name", p.ToolName)
	put("last_assistant_message", p.LastAssistantMessage)
	put("prompt", p.Prompt)
	put("source", p.Source)
	if p.Subagent && p.AgentID == "" {
		// An agent_id that was not a string still marks a subagent's call.
		m["agent_id"] = true
	}
	if p.ToolInput != "" && json.Valid([]byte(p.ToolInput)) {
		m["tool_input"] = json.RawMessage(p.ToolInput)
	}
	if p.SecondsSinceLastResponse != 0 {
		m["seconds_since_last_response"] = p.SecondsSinceLastResponse
	}
	if p.ContextTokens != 0 {
		m["context_tokens"] = p.ContextTokens
	}
	if p.CacheLikelyExpired {
		m["prompt_cache_likely_expired"] = true
	}
	data, _ := json.Marshal(m)
	return data
}

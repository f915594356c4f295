// Package hook answers Claude Code's hook events and its status line: the
// calls that run on every tool call and every few hundred milliseconds
// (design §2, §5, §11).
//
// It answers the common calls itself — a PostToolUse whose lines the
// session's line cache holds, a status line, the spend fuse's checks, a
// prompt while the prompt cache is warm — and hands the rest to the
// program that holds every command (Full): the recompute of the lines
// (once per 10,000 tokens of growth), a prompt after the cache went cold,
// a resumed session's start. The program Claude Code starts,
// context-budget, reaches that program by running context-budget-cli
// (Exec); context-budget-cli calls it in process. So the hook's program
// links neither the price files' TOML nor Claude Code's settings files,
// and pays for neither on every call.
//
// Whatever a call cannot read is silence and exit status 0; every call
// runs under one deadline (deadline.go).
package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/tuning"
)

// maxPayload bounds what the hook reads from stdin; a payload past it is
// not one Claude Code sends, and it fails to parse.
const maxPayload = 64 << 20

// Full is the part of the program the hook's program does not link.
type Full interface {
	// Recompute decides call's lines and saves them in the session's
	// line cache, giving up by deadline.
	Recompute(call *lines.Call, deadline time.Time) error
	// HandOver answers a whole call the hook does not (a cold prompt, a
	// resumed session's start), p being its payload.
	HandOver(p reading.Payload, stdout, stderr io.Writer)
}

// Run answers one hook call: the payload on stdin, the answer on stdout.
// It never fails loudly: whatever it cannot read is silence and exit
// status 0 (design §2).
func Run(stdin io.Reader, stdout, stderr io.Writer, full Full) int {
	// Keep the heap small: a tail scan through a multi-megabyte tool
	// result leaves garbage, and the call's budget is 8 MiB.
	debug.SetMemoryLimit(8 << 20)
	g := newGuard(stdout)
	defer g.stop()
	p, err := reading.ReadPayload(io.LimitReader(stdin, maxPayload))
	if err != nil {
		g.answer(nil)
		return 0
	}
	switch p.HookEventName {
	case "PreToolUse", "Stop", "SubagentStop":
		// The fuse's deadline starts once it is found armed: the unarmed
		// check, on every tool call, is an environment look-up, one open
		// and one look for the fuse's witness, under the deadline set
		// above.
		return fuseCall(p, g, stderr)
	}
	g.begin()
	switch p.HookEventName {
	case "UserPromptSubmit":
		if !warmPrompt(p, os.Getenv, time.Now()) {
			handOver(full, p, g, stderr)
		}
		return 0
	case "SessionStart":
		// Only a resumed or forked session's start is the cold check's.
		if p.Source == "resume" || p.Source == "fork" {
			handOver(full, p, g, stderr)
		}
		return 0
	}
	countCall(p, os.Getenv)
	answer, err := post(p, os.Getenv, g, full)
	if err != nil {
		reportConfig(err, stderr)
		g.answer(nil)
		return 0
	}
	g.answer(answer)
	return 0
}

// handOver has full answer the call, under the call's deadline.
func handOver(full Full, p reading.Payload, g *guard, stderr io.Writer) {
	var out bytes.Buffer
	full.HandOver(p, &out, stderr)
	g.answer(out.Bytes())
}

// ContextAnswer is the hook's answer that puts text in front of the
// model (hookSpecificOutput.additionalContext): one JSON object and a
// newline; nothing for no text.
func ContextAnswer(event, text string) []byte {
	return NoticeAnswer(event, text, "")
}

// NoticeAnswer is ContextAnswer with a line for the person at the
// keyboard too (systemMessage; "" for none).
func NoticeAnswer(event, text, system string) []byte {
	if text == "" {
		return nil
	}
	if event == "" {
		event = "PostToolUse"
	}
	out, _ := json.Marshal(output{System: system, Specific: &specific{Event: event, Context: text}})
	return append(out, '\n')
}

// BlockAnswer is the answer that stops a prompt, with the reason the
// user reads.
func BlockAnswer(reason string) []byte {
	out, _ := json.Marshal(output{Decision: "block", Reason: reason})
	return append(out, '\n')
}

// output is the shape of every answer the hook gives.
type output struct {
	Continue   *bool     `json:"continue,omitempty"`
	StopReason string    `json:"stopReason,omitempty"`
	System     string    `json:"systemMessage,omitempty"`
	Decision   string    `json:"decision,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	Specific   *specific `json:"hookSpecificOutput,omitempty"`
}

type specific struct {
	Event    string `json:"hookEventName"`
	Decision string `json:"permissionDecision,omitempty"`
	Reason   string `json:"permissionDecisionReason,omitempty"`
	Context  string `json:"additionalContext,omitempty"`
}

// reportConfig prints an invalid variable's one line, the hook's one
// way to speak on any event (design §12); any other error is silence.
func reportConfig(err error, stderr io.Writer) {
	if ce, ok := err.(*tuning.Error); ok {
		fmt.Fprintf(stderr, "context-budget: %v\n", ce)
	}
}

// SessionRoot is the project root of a hook call: $CLAUDE_PROJECT_DIR,
// else the first of folders that is set.
func SessionRoot(getenv func(string) string, folders ...string) string {
	if d := getenv("CLAUDE_PROJECT_DIR"); d != "" {
		return d
	}
	for _, d := range folders {
		if d != "" {
			return d
		}
	}
	return ""
}

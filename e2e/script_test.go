package e2e

import (
	"fmt"
	"time"
)

// Usage is what one response reports. The CLI writes it into the transcript
// as given, so the mock decides the session's reading.
type Usage struct {
	Input, CacheCreation, CacheRead, Output int64
}

// Reading is the context the request carried, as the hook computes it.
func (u Usage) Reading() int64 { return u.Input + u.CacheCreation + u.CacheRead }

func (u Usage) startJSON() map[string]any {
	return map[string]any{
		"input_tokens":                u.Input,
		"cache_creation_input_tokens": u.CacheCreation,
		"cache_read_input_tokens":     u.CacheRead,
		"cache_creation":              map[string]any{"ephemeral_5m_input_tokens": u.CacheCreation, "ephemeral_1h_input_tokens": 0},
		"output_tokens":               1,
		"service_tier":                "standard",
	}
}

func (u Usage) deltaJSON() map[string]any {
	return map[string]any{"output_tokens": u.Output}
}

// at is the usage of a response whose request carried reading tokens:
// mostly cache reads, as in a real long session.
func at(reading int64) Usage {
	return Usage{Input: 6, CacheCreation: 2000, CacheRead: reading - 2006, Output: 120}
}

// Block is one content block of a scripted response: text, or a tool call
// when Tool is set. The mock fills in ID.
type Block struct {
	Text  string
	Tool  string
	Input map[string]any
	ID    string
}

func text(s string) Block { return Block{Text: s} }

func bash(cmd string) Block {
	return Block{Tool: "Bash", Input: map[string]any{"command": cmd, "description": "run " + cmd}}
}

// agent calls a subagent in the foreground: 2.1.332 runs it in the
// background unless told otherwise, and a background run would end the
// main turn before the subagent's calls.
func agent(prompt string) Block {
	return Block{Tool: "Agent", Input: map[string]any{
		"description": "e2e subagent", "prompt": prompt,
		"subagent_type": "general-purpose", "run_in_background": false,
	}}
}

// Turn is one scripted response.
type Turn struct {
	Usage  Usage
	Blocks []Block
	// Hold delays the end of the stream (message_delta, message_stop)
	// after the last content block.
	Hold time.Duration
}

// turn is a response at a reading with the given blocks.
func turn(reading int64, blocks ...Block) Turn {
	return Turn{Usage: at(reading), Blocks: blocks}
}

// lagHold is how long a crossing turn holds the end of its stream. The
// call's transcript record then lands a few hundred milliseconds after the
// hook starts — what design §3 measured on real sessions — so a hook that
// reads at once takes the previous reading and fires late; one that waits
// for the record (up to ~1 s) fires on time.
const lagHold = 400 * time.Millisecond

// crossing marks a turn whose response crosses a line: it holds the end of
// its stream for lagHold.
func crossing(t Turn) Turn {
	t.Hold = lagHold
	return t
}

// response is a Turn on its way out, with the model and message id.
type response struct {
	id, model string
	usage     Usage
	blocks    []Block
	hold      time.Duration
}

func (r response) envelope() map[string]any {
	return map[string]any{"id": r.id, "type": "message", "role": "assistant", "model": r.model, "stop_sequence": nil}
}

func (r response) stopReason() string {
	for _, b := range r.blocks {
		if b.Tool != "" {
			return "tool_use"
		}
	}
	return "end_turn"
}

// Script is what the mock answers, queue by queue.
type Script struct {
	// Main answers the session's own requests in order; when they run out
	// the mock ends the turn.
	Main []Turn
	// Sub answers the subagents' requests in order.
	Sub []Turn
	// Summary answers a compaction request.
	Summary Turn
	// Overloaded is how many of the first main requests are answered
	// 529 overloaded_error, as the API answers when it is busy, before
	// the Main queue answers any.
	Overloaded int
}

// toolID names the n-th tool call of a run.
func toolID(n int) string { return fmt.Sprintf("toolu_e2e%04d", n) }

package gen

import (
	"io"
	"math/rand/v2"
)

// Script is a session written response by response, for tests that must
// know what a reader finds in it: each response's reading, and what comes
// before it (a compaction, a subagent's response, damage).
type Script struct {
	// ID is the session id in every record's envelope.
	ID string
	// Model is the model of the responses (default "claude-opus-4-6").
	Model     string
	Responses []Response
	// Seed makes the filler reproducible.
	Seed uint64
	// Progress is how many progress records follow each response's tool
	// result; one in ten embeds a subagent's assistant message, as in real
	// files.
	Progress int
}

// Response is one of a Script's own responses.
type Response struct {
	// Reading is its context: input + cache read + cache write.
	Reading int64
	// Output is its final output count; 0 picks a plausible one.
	Output int64
	// Write1h writes the cache for an hour instead of five minutes.
	Write1h bool
	// Model overrides Script.Model.
	Model string
	// Before is written before the response: "compact" or "microcompact"
	// (a boundary, and a compaction's summary), "synthetic" (an API
	// error's response, with zero usage), "sidechain" (a subagent's
	// response inline, its usage past any reading here), "damaged" (a
	// spliced, truncated line, a NUL run and a line that is not JSON), or
	// "" for nothing.
	Before string
	// ToolResult is the size of the tool result that follows; 0 picks one.
	ToolResult int
	// Blocks is how many records the response spans; 0 picks 1–3.
	Blocks int
	// Spliced writes the response's first record on the line before it,
	// with no newline between: a write cut short and appended to.
	Spliced bool
	// Bare leaves out the tool result and progress records after it, so a
	// Spliced response that follows lands on this one's line.
	Bare bool
}

// Climb returns n responses whose readings start at start and grow by step.
func Climb(start, step int64, n int) []Response {
	out := make([]Response, n)
	for i := range out {
		out[i].Reading = start + int64(i)*step
	}
	return out
}

// scriptVersion is the Claude Code version a Script's records carry: a
// 2.1.3x, like the real transcripts beside the repository, which writes
// no requestedModel and a null stop_reason on every record.
const scriptVersion = "2.1.39"

// WriteScript writes s as JSONL to w.
func WriteScript(w io.Writer, s Script) error {
	g := scripter{writer: newWriter(w, rand.New(rand.NewPCG(s.Seed, 0x5eed)), s.ID, defaultCwd, scriptVersion), s: s}
	g.snapshot()
	g.prompt()
	for _, r := range s.Responses {
		g.before(r)
		g.splice = r.Spliced
		id := g.response(r)
		if r.Bare {
			continue
		}
		size := r.ToolResult
		if size == 0 {
			size = 300 + g.rng.IntN(7000)
		}
		g.toolResult(id, size)
		for range s.Progress {
			if g.rng.IntN(10) == 0 {
				g.agentProgress()
			} else {
				g.hookProgress("PostToolUse", id)
			}
		}
	}
	return g.finish()
}

// scripter writes one Script.
type scripter struct {
	*writer
	s Script
}

func (g *scripter) before(r Response) {
	switch r.Before {
	case "compact", "microcompact":
		g.boundary(r.Before, 167_000+g.rng.Int64N(3000))
		if r.Before == "compact" {
			g.compactSummary()
		}
	case "synthetic":
		g.syntheticResponse("API Error: 529 overloaded", true)
	case "sidechain":
		g.sidechainResponse()
	case "damaged":
		g.damage()
	}
}

// response writes r: a thinking block first when it spans more than one
// record, text blocks, and a Bash call last. It returns the call's id.
func (g *scripter) response(r Response) string {
	m := response{id: g.apiID("msg_01"), request: g.apiID("req_011C"), model: r.Model}
	if m.model == "" {
		m.model = g.s.Model
	}
	if m.model == "" {
		m.model = defaultModel
	}
	blocks := r.Blocks
	if blocks == 0 {
		blocks = 1 + g.rng.IntN(3)
	}
	out := r.Output
	if out == 0 {
		out = 50 + g.rng.Int64N(900)
	}
	m.write = min(500+g.rng.Int64N(3000), r.Reading)
	m.input = min(r.Reading-m.write, 3)
	m.read = r.Reading - m.write - m.input
	m.oneHour = r.Write1h
	id := ""
	for b := range blocks {
		g.openResponse(&m)
		switch {
		case b == blocks-1:
			id = g.apiID("toolu_01")
			g.toolUseBlock(id, tools[0])
		case b == 0:
			g.thinkingBlock(200 + g.rng.IntN(800))
		default:
			g.textBlock(50 + g.rng.IntN(300))
		}
		// The output grows across the records to the response's own.
		g.closeResponse(&m, max(out*int64(b+1)/int64(blocks), 1), "null")
	}
	return id
}

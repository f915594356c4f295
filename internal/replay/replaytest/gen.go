// Package replaytest writes synthetic Claude Code transcripts for tests
// and benchmarks: sessions whose readings, compactions and damage are
// known, in the shapes Claude Code 2.1 writes (one assistant record per
// content block, tool results as user records, progress records embedding
// subagent messages, synthetic and sidechain records).
package replaytest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// Response is one of the session's own responses.
type Response struct {
	// Reading is its context: input + cache read + cache write.
	Reading int64
	// Output is its final output count; 0 picks a plausible one.
	Output int64
	// Write1h writes the cache for an hour instead of five minutes.
	Write1h bool
	// Model overrides Session.Model.
	Model string
	// Before is written before the response: "compact" or "microcompact"
	// (a boundary), "synthetic" (an API-error record), "sidechain" (a
	// subagent's response inline), "damaged" (a spliced, truncated line
	// and a NUL run), or "" for nothing.
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

// Session is a transcript to write.
type Session struct {
	ID        string
	Model     string
	Responses []Response
	// Seed makes the filler reproducible.
	Seed uint64
	// Progress is how many progress records follow each response.
	Progress int
}

// Climb returns n responses whose readings start at start and grow by step.
func Climb(start, step int64, n int) []Response {
	out := make([]Response, n)
	for i := range out {
		out[i].Reading = start + int64(i)*step
	}
	return out
}

// Write writes s as JSONL to w.
func Write(w io.Writer, s Session) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	g := gen{w: bw, s: s, rng: rand.New(rand.NewPCG(s.Seed, 0x5eed))}
	g.run()
	if g.pending {
		g.w.WriteByte('\n')
	}
	if g.err != nil {
		return g.err
	}
	return bw.Flush()
}

type gen struct {
	w      *bufio.Writer
	s      Session
	rng    *rand.Rand
	err    error
	n      int // records written, for uuids
	msgs   int
	parent string
	clock  int
	// pending is the newline owed to the last line, written before the
	// next one unless that one is spliced on.
	pending bool
	splice  bool
}

func (g *gen) line(v any) {
	if g.err != nil {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		g.err = err
		return
	}
	if g.pending && !g.splice {
		g.w.WriteByte('\n')
	}
	g.splice = false
	_, g.err = g.w.Write(data)
	g.pending = true
}

// raw writes text that ends its own lines.
func (g *gen) raw(text string) {
	if g.pending {
		g.w.WriteByte('\n')
		g.pending = false
	}
	g.w.WriteString(text)
}

func (g *gen) uuid() string {
	g.n++
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", g.s.Seed&0xffffffff, g.n)
}

func (g *gen) timestamp() string {
	g.clock += 1 + g.rng.IntN(20)
	return fmt.Sprintf("2026-02-12T%02d:%02d:%02d.000Z", 10+g.clock/3600%12, g.clock/60%60, g.clock%60)
}

// envelope is the fields every conversational record carries.
func (g *gen) envelope(typ string) map[string]any {
	id := g.uuid()
	m := map[string]any{
		"parentUuid": g.parent, "isSidechain": false, "userType": "external",
		"cwd": "/home/user/project", "sessionId": g.s.ID, "version": "2.1.39",
		"gitBranch": "main", "type": typ, "uuid": id, "timestamp": g.timestamp(),
	}
	g.parent = id
	return m
}

func (g *gen) run() {
	g.line(map[string]any{"type": "file-history-snapshot", "messageId": g.uuid(),
		"snapshot": map[string]any{"trackedFileBackups": map[string]any{}}, "isSnapshotUpdate": false})
	u := g.envelope("user")
	u["message"] = map[string]any{"role": "user", "content": "Work through the plan in PLAN.md."}
	g.line(u)
	for i, r := range g.s.Responses {
		g.before(r)
		g.splice = r.Spliced
		g.response(i, r)
		if r.Bare {
			continue
		}
		g.toolResult(r)
		for range g.s.Progress {
			g.progress()
		}
	}
}

func (g *gen) before(r Response) {
	switch r.Before {
	case "compact", "microcompact":
		b := g.envelope("system")
		b["parentUuid"] = nil
		b["subtype"] = r.Before + "_boundary"
		b["content"] = "Conversation compacted"
		meta := map[string]any{"trigger": "auto", "preTokens": 167000 + g.rng.Int64N(3000)}
		if r.Before == "compact" {
			b["compactMetadata"] = meta
		} else {
			b["microcompactMetadata"] = meta
		}
		g.line(b)
		if r.Before == "compact" {
			s := g.envelope("user")
			s["isCompactSummary"] = true
			s["message"] = map[string]any{"role": "user",
				"content": "This session is being continued from a previous conversation that ran out of context."}
			g.line(s)
		}
	case "synthetic":
		a := g.envelope("assistant")
		a["isApiErrorMessage"] = true
		a["message"] = map[string]any{"id": g.uuid(), "model": "<synthetic>", "role": "assistant", "type": "message",
			"content": []any{map[string]any{"type": "text", "text": "API Error: 529 overloaded"}},
			"usage":   map[string]any{"input_tokens": 0, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 0}}
		g.line(a)
	case "sidechain":
		a := g.envelope("assistant")
		a["isSidechain"] = true
		g.msgs++
		a["message"] = g.message(fmt.Sprintf("msg_side%06d", g.msgs), g.model(Response{}), 5, 100, false,
			map[string]any{"type": "text", "text": "subagent work"})
		g.line(a)
	case "damaged":
		// A record cut short and spliced onto the next one, then NULs.
		g.raw(`{"parentUuid":"x","type":"user","message":{"role":"user","content":"cut sho` +
			`{"type":"summary","summary":"spliced","leafUuid":"y"}` + "\n" +
			strings.Repeat("\x00", 64) + "\n" + "not json at all\n")
	}
}

func (g *gen) model(r Response) string {
	if r.Model != "" {
		return r.Model
	}
	if g.s.Model != "" {
		return g.s.Model
	}
	return "claude-opus-4-6"
}

// message builds an API message whose usage reads ctx in total, mostly
// from the cache, with a little written.
func (g *gen) message(id, model string, ctx, out int64, oneHour bool, block map[string]any) map[string]any {
	write := min(ctx, 500+g.rng.Int64N(3000))
	input := min(ctx-write, 3)
	read := ctx - write - input
	cc := map[string]any{"ephemeral_5m_input_tokens": write, "ephemeral_1h_input_tokens": 0}
	if oneHour {
		cc = map[string]any{"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": write}
	}
	return map[string]any{"model": model, "id": id, "type": "message", "role": "assistant",
		"content": []any{block}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": input, "cache_creation_input_tokens": write,
			"cache_read_input_tokens": read, "cache_creation": cc, "output_tokens": out,
			"service_tier": "standard", "inference_geo": "global"}}
}

func (g *gen) response(i int, r Response) {
	g.msgs++
	prefix := strings.ReplaceAll(g.s.ID, "-", "")
	prefix = prefix[:min(len(prefix), 8)]
	id := fmt.Sprintf("msg_%s_%06d", prefix, g.msgs)
	blocks := r.Blocks
	if blocks == 0 {
		blocks = 1 + g.rng.IntN(3)
	}
	out := r.Output
	if out == 0 {
		out = 50 + g.rng.Int64N(900)
	}
	// Keep the usage numbers fixed across the blocks but for output,
	// which grows, as Claude Code writes them.
	seed := g.rng.Uint64()
	for b := range blocks {
		var block map[string]any
		switch {
		case b == blocks-1:
			block = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%s_%d", id, b), "name": "Bash",
				"input": map[string]any{"command": "go test ./...", "description": "run the tests"}}
		case b == 0:
			block = map[string]any{"type": "thinking", "thinking": filler(g.rng, 200+g.rng.IntN(800)), "signature": "sig"}
		default:
			block = map[string]any{"type": "text", "text": filler(g.rng, 50+g.rng.IntN(300))}
		}
		a := g.envelope("assistant")
		a["requestId"] = fmt.Sprintf("req_%d", i)
		saved := g.rng
		g.rng = rand.New(rand.NewPCG(seed, 1))
		partial := out * int64(b+1) / int64(blocks)
		a["message"] = g.message(id, g.model(r), r.Reading, max(partial, 1), r.Write1h, block)
		g.rng = saved
		g.line(a)
	}
}

func (g *gen) toolResult(r Response) {
	n := r.ToolResult
	if n == 0 {
		n = 200 + g.rng.IntN(6000)
	}
	text := filler(g.rng, n)
	u := g.envelope("user")
	u["message"] = map[string]any{"role": "user", "content": []any{map[string]any{
		"type": "tool_result", "tool_use_id": "toolu_x", "content": text}}}
	u["toolUseResult"] = map[string]any{"stdout": text, "stderr": "", "interrupted": false}
	u["sourceToolAssistantUUID"] = g.parent
	g.line(u)
}

// progress writes a progress record embedding a subagent's message, as
// Claude Code 2.1 does: it carries the word "assistant" and usage, and must
// not count as the session's own response.
func (g *gen) progress() {
	p := g.envelope("progress")
	g.msgs++
	p["data"] = map[string]any{"type": "agent_progress", "message": map[string]any{
		"type": "assistant", "message": g.message(fmt.Sprintf("msg_agent%06d", g.msgs), "claude-haiku-4-5", 9000, 40, false,
			map[string]any{"type": "text", "text": filler(g.rng, 100)})}}
	g.line(p)
}

var words = strings.Fields(`the of context session tool result read file line test build plan go
	token cache write budget notice relay pause warn reading compaction agent transcript record`)

func filler(rng *rand.Rand, n int) string {
	var b strings.Builder
	b.Grow(n + 16)
	for b.Len() < n {
		b.WriteString(words[rng.IntN(len(words))])
		if rng.IntN(12) == 0 {
			b.WriteString(".\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

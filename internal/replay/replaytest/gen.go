// Package replaytest writes synthetic Claude Code transcripts for tests
// and benchmarks: sessions whose readings, compactions and damage are
// known, in the shapes Claude Code 2.1 writes (one assistant record per
// content block, tool results as user records holding the output twice,
// progress records, some embedding a subagent's messages, synthetic and
// sidechain records). The mix of record sizes follows the real transcripts
// in ../shared/data/transcripts, so that a benchmark over generated files
// says something about real ones.
package replaytest

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
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
	// Progress is how many progress records follow each response; one in
	// ten embeds a subagent's assistant message, as in real files.
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
	g := gen{w: bufio.NewWriterSize(w, 256<<10), s: s, rng: rand.New(rand.NewPCG(s.Seed, 0x5eed))}
	g.prefix = strings.ReplaceAll(s.ID, "-", "")
	g.prefix = g.prefix[:min(len(g.prefix), 8)]
	g.run()
	if g.pending {
		g.w.WriteByte('\n')
	}
	if err := g.w.Flush(); err != nil {
		return err
	}
	return g.err
}

type gen struct {
	w      *bufio.Writer
	s      Session
	rng    *rand.Rand
	err    error
	prefix string
	n      int // records written, for uuids
	msgs   int
	clock  int
	parent string
	buf    []byte
	// pending is the newline owed to the last line, written before the
	// next one unless that one is spliced on.
	pending bool
	splice  bool
}

// emit writes g.buf as one record line.
func (g *gen) emit() {
	if g.pending && !g.splice {
		g.w.WriteByte('\n')
	}
	g.splice = false
	if _, err := g.w.Write(g.buf); err != nil && g.err == nil {
		g.err = err
	}
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

// envelope starts g.buf with the fields every conversational record
// carries, in Claude Code's order, and leaves it open for more.
func (g *gen) envelope(typ string, sidechain bool) {
	id := g.uuid()
	g.clock += 1 + g.rng.IntN(20)
	b := append(g.buf[:0], `{"parentUuid":`...)
	if g.parent == "" {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendQuote(b, g.parent)
	}
	b = append(b, `,"isSidechain":`...)
	b = strconv.AppendBool(b, sidechain)
	b = append(b, `,"userType":"external","cwd":"/home/user/project","sessionId":`...)
	b = strconv.AppendQuote(b, g.s.ID)
	b = append(b, `,"version":"2.1.39","gitBranch":"main","type":"`...)
	b = append(b, typ...)
	b = append(b, `","uuid":"`...)
	b = append(b, id...)
	b = fmt.Appendf(b, `","timestamp":"2026-02-12T%02d:%02d:%02d.000Z"`, 10+g.clock/3600%12, g.clock/60%60, g.clock%60)
	g.buf = b
	g.parent = id
}

func (g *gen) close() { g.buf = append(g.buf, '}') }

func (g *gen) run() {
	g.buf = fmt.Appendf(g.buf[:0], `{"type":"file-history-snapshot","messageId":"%s","snapshot":{"trackedFileBackups":{}},"isSnapshotUpdate":false}`, g.uuid())
	g.emit()
	g.envelope("user", false)
	g.buf = append(g.buf, `,"message":{"role":"user","content":"Work through the plan in PLAN.md."}`...)
	g.close()
	g.emit()
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
		g.parent = ""
		g.envelope("system", false)
		g.buf = fmt.Appendf(g.buf, `,"subtype":"%s_boundary","content":"Conversation compacted","%sMetadata":{"trigger":"auto","preTokens":%d}`,
			r.Before, r.Before, 167000+g.rng.Int64N(3000))
		g.close()
		g.emit()
		if r.Before == "compact" {
			g.envelope("user", false)
			g.buf = append(g.buf, `,"isCompactSummary":true,"message":{"role":"user","content":"This session is being continued from a previous conversation that ran out of context."}`...)
			g.close()
			g.emit()
		}
	case "synthetic":
		g.envelope("assistant", false)
		g.buf = fmt.Appendf(g.buf, `,"isApiErrorMessage":true,"message":{"id":"%s","model":"<synthetic>","role":"assistant","type":"message","content":[{"type":"text","text":"API Error: 529 overloaded"}],"usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0}}`, g.uuid())
		g.close()
		g.emit()
	case "sidechain":
		g.msgs++
		g.envelope("assistant", true)
		g.message(fmt.Sprintf("msg_side%06d", g.msgs), g.model(Response{}), 5, 1, 100, false)
		g.buf = append(g.buf, `{"type":"text","text":"subagent work"}]`...)
		g.close()
		g.close()
		g.emit()
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

// message appends an API message whose usage reads ctx tokens in total,
// write of them written to the cache, and leaves its content array open.
func (g *gen) message(id, model string, ctx, write, out int64, oneHour bool) {
	write = min(ctx, write)
	input := min(ctx-write, 3)
	read := ctx - write - input
	w5, w1 := write, int64(0)
	if oneHour {
		w5, w1 = 0, write
	}
	g.buf = fmt.Appendf(g.buf, `,"message":{"model":%q,"id":%q,"type":"message","role":"assistant","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"cache_creation":{"ephemeral_5m_input_tokens":%d,"ephemeral_1h_input_tokens":%d},"output_tokens":%d,"service_tier":"standard","inference_geo":"global"},"content":[`,
		model, id, input, write, read, w5, w1, out)
}

func (g *gen) response(i int, r Response) {
	g.msgs++
	id := fmt.Sprintf("msg_%s_%06d", g.prefix, g.msgs)
	blocks := r.Blocks
	if blocks == 0 {
		blocks = 1 + g.rng.IntN(3)
	}
	out := r.Output
	if out == 0 {
		out = 50 + g.rng.Int64N(900)
	}
	// The usage is the same on every block but for output, which grows,
	// as Claude Code writes it.
	write := 500 + g.rng.Int64N(3000)
	for b := range blocks {
		g.envelope("assistant", false)
		g.buf = fmt.Appendf(g.buf, `,"requestId":"req_%d"`, i)
		g.message(id, g.model(r), r.Reading, write, max(out*int64(b+1)/int64(blocks), 1), r.Write1h)
		switch {
		case b == blocks-1:
			g.buf = fmt.Appendf(g.buf, `{"type":"tool_use","id":"toolu_%s_%d","name":"Bash","input":{"command":"go test ./...","description":"run the tests"}}]`, id, b)
		case b == 0:
			g.buf = append(g.buf, `{"type":"thinking","thinking":"`...)
			g.buf = append(g.buf, filler(g.rng, 200+g.rng.IntN(800))...)
			g.buf = append(g.buf, `","signature":"sig"}]`...)
		default:
			g.buf = append(g.buf, `{"type":"text","text":"`...)
			g.buf = append(g.buf, filler(g.rng, 50+g.rng.IntN(300))...)
			g.buf = append(g.buf, `"}]`...)
		}
		g.close()
		g.close()
		g.emit()
	}
}

func (g *gen) toolResult(r Response) {
	n := r.ToolResult
	if n == 0 {
		n = 300 + g.rng.IntN(7000)
	}
	text := filler(g.rng, n)
	src := g.parent
	g.envelope("user", false)
	g.buf = append(g.buf, `,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_x","content":"`...)
	g.buf = append(g.buf, text...)
	g.buf = append(g.buf, `"}]},"toolUseResult":{"stdout":"`...)
	g.buf = append(g.buf, text...)
	g.buf = append(g.buf, `","stderr":"","interrupted":false},"sourceToolAssistantUUID":"`...)
	g.buf = append(g.buf, src...)
	g.buf = append(g.buf, '"')
	g.close()
	g.emit()
}

// progress writes a progress record. One in ten embeds a subagent's
// message, as Claude Code 2.1 does: it carries the word "assistant" and
// usage, and must not count as the session's own response.
func (g *gen) progress() {
	parent := g.parent
	g.envelope("progress", false)
	g.parent = parent // progress records hang off the chain
	if g.rng.IntN(10) != 0 {
		g.buf = append(g.buf, `,"data":{"type":"bash_progress","output":"`...)
		g.buf = append(g.buf, filler(g.rng, 300+g.rng.IntN(900))...)
		g.buf = append(g.buf, `","elapsedTimeSeconds":3},"toolUseID":"bash-progress-0"`...)
		g.close()
		g.emit()
		return
	}
	g.msgs++
	g.buf = append(g.buf, `,"data":{"type":"agent_progress","message":{"type":"assistant"`...)
	g.message(fmt.Sprintf("msg_agent%06d", g.msgs), "claude-haiku-4-5", 9000, 500, 40, false)
	g.buf = append(g.buf, `{"type":"text","text":"`...)
	g.buf = append(g.buf, filler(g.rng, 100+g.rng.IntN(400))...)
	g.buf = append(g.buf, `"}]}}}`...)
	g.close()
	g.emit()
}

// pool is text to cut filler from: words, with JSON-escaped newlines.
var pool = sync.OnceValue(func() string {
	words := strings.Fields(`the of context session tool result read file line test build plan go
		token cache write budget notice relay pause warn reading compaction agent transcript record`)
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for b.Len() < 1<<20 {
		b.WriteString(words[rng.IntN(len(words))])
		if rng.IntN(12) == 0 {
			b.WriteString(`.\n`)
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
})

// filler returns about n bytes of JSON-safe text.
func filler(rng *rand.Rand, n int) string {
	p := pool()
	n = min(n, len(p)/2)
	i := rng.IntN(len(p) - n)
	s := p[i : i+n]
	// Do not end inside an escape (the pool's only one is \n).
	return strings.TrimSuffix(s, `\`)
}

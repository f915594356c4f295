// Package gen writes synthetic Claude Code session transcripts for
// benchmarks and tests, in the shapes Claude Code 2.1.x writes,
// deterministic from a seed. It writes two kinds, through the same record
// writers (records.go):
//
//   - Write grows a realistic transcript to a target size, for benchmarks
//     and for readers that must find the reading in it;
//   - WriteScript writes a Script, a session given response by response,
//     for tests that must know each reading, compaction and damage (replay,
//     its report, the hook driven over a transcript's cuts, found by Cuts).
//
// A transcript is a run of API responses. Each response is written the way
// Claude Code writes it: one assistant record per content block, all
// sharing one message.id, the output count growing across them, followed by
// hook progress records and one user record per tool result. Around them
// come the records a long session accumulates: file-history snapshots,
// queue operations, api-request, attachment and cost-state records (types a
// reader must skip), sidechain records of subagents, progress records
// embedding a subagent's messages, `<synthetic>` turns, turn summaries.
// Write's context climbs from Options.Start by a few thousand tokens per
// response; when it reaches the window's compaction point a
// compact_boundary and its isCompactSummary user record bring it down.
//
// Write's tool results are mostly small, sometimes hundreds of KB, and
// every Options.HugeEvery bytes one of Options.HugeResult bytes (3 MB by
// default). Options.Tail chooses how the file ends, so that a reader can be
// measured on the common case (the response that made the call is the last
// thing written) and on the hard one (a huge tool result follows it).
package gen

import (
	"io"
	"math/rand/v2"
)

// Tail is how a generated transcript ends.
type Tail int

const (
	// TailCall ends with the last response's tool_use record and the
	// progress record of its PreToolUse hook: what is on disk when the
	// PostToolUse hook for that call runs.
	TailCall Tail = iota
	// TailBehindHuge ends with the last response's tool_use record followed
	// by its tool result of Options.HugeResult bytes, so that a tail reader
	// must cross the whole result to find the response.
	TailBehindHuge
)

// Options shape a transcript. The zero value of each field means its
// default.
type Options struct {
	// Size is the target size in bytes. Writing stops at the first response
	// boundary at or past it, then the tail is written; the file is a few
	// KB over Size (a huge tail adds HugeResult).
	Size int64
	// Seed makes the output deterministic: the same options give the same
	// bytes.
	Seed uint64
	// Model is the model of the main chain's responses
	// (default "claude-opus-4-6").
	Model string
	// Window is the context window in tokens (default 200,000). Claude
	// Code compacts at about 83.5% of it: ~167k on a 200k window, ~835k on
	// a 1M one.
	Window int64
	// Start is the context of the first response and about where it
	// returns after a compaction (default 20,000).
	Start int64
	// HugeResult is the size in bytes of a huge tool result's line
	// (default 3 MB).
	HugeResult int
	// HugeEvery is the distance in bytes between huge tool results
	// (default 64 MB); negative for none.
	HugeEvery int64
	// Tail chooses how the transcript ends.
	Tail Tail
	// EndBelow, when set, makes the transcript end with a reading below
	// it: if the context is at or past it when the target size is
	// reached, a compaction comes before the last response. A benchmark
	// of the common case wants a reading under the warn line.
	EndBelow int64
	// SessionID and Cwd fill the records' envelope (defaults: a fixed id
	// and /home/user/project).
	SessionID string
	Cwd       string
}

// Result describes a written transcript, so that a test can check a reader
// against it.
type Result struct {
	// Bytes is the number of bytes written.
	Bytes int64
	// Responses counts main-chain responses (message ids), Compactions the
	// compact_boundary records.
	Responses   int
	Compactions int
	// Reading is the context of the last main-chain response: what a
	// correct reader returns for the whole file.
	Reading int64
	// MessageID and ToolUseID identify the last response and its last
	// tool_use block: the call whose PostToolUse hook reads the file.
	MessageID string
	ToolUseID string
}

const (
	defaultModel     = "claude-opus-4-6"
	defaultWindow    = 200_000
	defaultStart     = 20_000
	defaultHuge      = 3 << 20
	defaultHugeEvery = 64 << 20
	defaultSessionID = "5e55a0b1-6c1d-4c0e-9b7a-2f8e0d3c4b21"
	defaultCwd       = "/home/user/project"
	version          = "2.1.332"
	compactPerMille  = 835
	summaryBytes     = 12 << 10
	// maxResultInContext bounds the tokens one tool result adds: Claude
	// Code truncates what the model sees of a long output.
	maxResultInContext = 12_000
)

func (o Options) withDefaults() Options {
	if o.Model == "" {
		o.Model = defaultModel
	}
	if o.Window <= 0 {
		o.Window = defaultWindow
	}
	if o.Start <= 0 {
		o.Start = defaultStart
	}
	if o.HugeResult <= 0 {
		o.HugeResult = defaultHuge
	}
	if o.HugeEvery == 0 {
		o.HugeEvery = defaultHugeEvery
	}
	if o.SessionID == "" {
		o.SessionID = defaultSessionID
	}
	if o.Cwd == "" {
		o.Cwd = defaultCwd
	}
	return o
}

// Write writes a transcript shaped by opt to w.
func Write(w io.Writer, opt Options) (Result, error) {
	opt = opt.withDefaults()
	g := &grower{
		writer: newWriter(w, rand.New(rand.NewPCG(opt.Seed, 0x636f6e74657874)), opt.SessionID, opt.Cwd, version),
		opt:    opt,
		ctx:    opt.Start,
	}
	g.cached = opt.Start * 2 / 3
	g.nextHuge = opt.HugeEvery / 2
	if opt.HugeEvery < 0 {
		g.nextHuge = -1
	}
	g.session()
	err := g.finish()
	g.res.Bytes = g.n
	return g.res, err
}

// grower writes one transcript grown to Options.Size.
type grower struct {
	*writer
	opt Options
	res Result

	ctx      int64 // the context the next response carries
	cached   int64 // the prefix of it already in the cache
	nextHuge int64 // the byte count at which the next huge result is due
}

// session writes the whole transcript.
func (g *grower) session() {
	g.snapshot()
	g.prompt()
	for g.err == nil && g.written() < g.opt.Size {
		g.step()
	}
	g.last()
}

// step writes one response with its tool calls and results, and what
// happens around it.
func (g *grower) step() {
	if g.ctx >= g.opt.Window*compactPerMille/1000 {
		g.compaction()
	}
	switch n := g.rng.IntN(1000); {
	case n < 20:
		g.sidechain()
	case n < 25:
		g.interruption()
		g.syntheticResponse("No response requested.", false)
	case n < 40:
		g.prompt()
	case n < 60:
		g.queueOperation()
	case n < 100:
		g.snapshot()
	}
	if g.rng.IntN(4) == 0 {
		g.apiRequest(g.requestedModel(), g.opt.Window >= 1_000_000)
	}
	calls := 1
	if g.rng.IntN(8) == 0 {
		calls = 2 + g.rng.IntN(3) // parallel tool calls
	}
	ids, out := g.response(calls)
	for _, id := range ids {
		g.hookProgress("PreToolUse", id)
	}
	added := out
	for _, id := range ids {
		size := g.resultSize()
		g.hookProgress("PostToolUse", id)
		g.toolResult(id, size)
		added += min(int64(size)/4, maxResultInContext)
	}
	if g.rng.IntN(6) == 0 {
		g.attachment()
	}
	if g.rng.IntN(10) == 0 {
		g.costState(float64(g.res.Responses) * 0.071)
		g.turnDuration()
	}
	g.cached = g.ctx
	g.ctx += added + int64(200+g.rng.IntN(800))
}

// resultSize picks the size of one tool result's text.
func (g *grower) resultSize() int {
	if g.nextHuge >= 0 && g.written() >= g.nextHuge {
		g.nextHuge += g.opt.HugeEvery
		return g.opt.HugeResult / 2 // the text is written twice: content and toolUseResult
	}
	switch n := g.rng.IntN(1000); {
	case n < 5:
		return 200<<10 + g.rng.IntN(400<<10)
	case n < 60:
		return 10<<10 + g.rng.IntN(40<<10)
	case n < 400:
		return 1<<10 + g.rng.IntN(8<<10)
	}
	return 40 + g.rng.IntN(800)
}

// last writes the final response and the tail Options.Tail asks for.
func (g *grower) last() {
	if g.opt.EndBelow > 0 && g.ctx >= g.opt.EndBelow {
		g.compaction()
	}
	ids, _ := g.response(1)
	id := ids[0]
	switch g.opt.Tail {
	case TailBehindHuge:
		g.hookProgress("PreToolUse", id)
		g.hookProgress("PostToolUse", id)
		g.toolResult(id, g.opt.HugeResult/2)
	default:
		g.hookProgress("PreToolUse", id)
	}
}

// response writes one API response of the main chain: a record per
// content block (a thinking block, a text block, its tool calls), the
// same message id and input figures on each, the output count growing.
// It returns the ids of its tool calls and the response's output tokens.
func (g *grower) response(calls int) ([]string, int64) {
	r := response{id: g.apiID("msg_01"), request: g.apiID("req_011C"), model: g.opt.Model, requested: g.requestedModel()}
	r.input = int64(1 + g.rng.IntN(9))
	r.read = min(g.cached, g.ctx-r.input)
	r.write = g.ctx - r.input - r.read
	r.oneHour = true
	var out int64
	var ids []string
	blocks := calls
	thinking := g.rng.IntN(2) == 0
	text := g.rng.IntN(3) > 0
	if thinking {
		blocks++
	}
	if text {
		blocks++
	}
	for b := range blocks {
		out += int64(20 + g.rng.IntN(400))
		g.openResponse(&r)
		switch {
		case thinking && b == 0:
			g.thinkingBlock(200 + g.rng.IntN(1500))
		case text && b == blocks-calls-1:
			g.textBlock(60 + g.rng.IntN(600))
		default:
			id := g.apiID("toolu_01")
			ids = append(ids, id)
			g.toolUseBlock(id, tools[g.rng.IntN(len(tools))])
		}
		stop := "null"
		if b == blocks-1 {
			stop = `"tool_use"`
		}
		g.closeResponse(&r, out, stop)
	}
	g.res.Responses++
	g.res.Reading = g.ctx
	g.res.MessageID = r.id
	g.res.ToolUseID = ids[len(ids)-1]
	return ids, out
}

func (g *grower) requestedModel() string {
	if g.opt.Window >= 1_000_000 {
		return g.opt.Model + "[1m]"
	}
	return g.opt.Model
}

// sidechain writes a subagent's work: its responses inline, as older
// versions wrote them, and the agent_progress record 2.1.x writes.
func (g *grower) sidechain() {
	for range 1 + g.rng.IntN(4) {
		g.sidechainResponse()
	}
	g.agentProgress()
}

// compaction writes a compact_boundary and the summary that follows it,
// and brings the context back down.
func (g *grower) compaction() {
	g.boundary("compact", g.ctx)
	g.compactSummary()
	g.res.Compactions++
	g.ctx = g.opt.Start + int64(g.rng.IntN(8000))
	g.cached = 0
}

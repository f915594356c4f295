package gen

import (
	"bufio"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// The records below follow the shapes Claude Code 2.1.x writes; field
// order and the envelope match real transcripts, so that a reader's cost
// per byte is measured on what it will meet. Write and WriteScript both
// write through them: what differs between a grown transcript and a
// scripted one is which records come in what order, not their shapes.

var epoch = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)

// writer writes records, one a line, with the state they share: the
// chain of uuids, the clock and the random source.
type writer struct {
	bw  *bufio.Writer
	err error
	rng *rand.Rand
	n   int64 // bytes that reached the underlying writer

	// The envelope every chain record carries.
	sessionID, cwd, version string

	buf    []byte // the record being built
	parent string // uuid of the previous record
	clock  int64  // milliseconds since the session started
	// owed is the newline the last line still owes: it is written before
	// the next line unless that one is spliced on (splice), as a write
	// cut short and appended to leaves it.
	owed, splice bool
}

func newWriter(w io.Writer, rng *rand.Rand, sessionID, cwd, version string) *writer {
	g := &writer{rng: rng, sessionID: sessionID, cwd: cwd, version: version}
	g.bw = bufio.NewWriterSize(&countWriter{w: w, n: &g.n}, 256<<10)
	return g
}

// countWriter counts the bytes that reach w.
type countWriter struct {
	w io.Writer
	n *int64
}

func (c countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	*c.n += int64(n)
	return n, err
}

// written is the number of bytes produced so far, flushed or not.
func (g *writer) written() int64 {
	n := g.n + int64(g.bw.Buffered())
	if g.owed {
		n++
	}
	return n
}

// finish ends the last line and flushes.
func (g *writer) finish() error {
	if g.owed {
		g.bw.WriteByte('\n')
		g.owed = false
	}
	if err := g.bw.Flush(); err != nil && g.err == nil {
		g.err = err
	}
	return g.err
}

// emit writes the record in g.buf as one line.
func (g *writer) emit() {
	if g.err == nil {
		if g.owed && !g.splice {
			g.bw.WriteByte('\n')
		}
		_, g.err = g.bw.Write(g.buf)
		g.owed = true
	}
	g.splice = false
	g.buf = g.buf[:0]
}

// raw writes text that ends its own lines.
func (g *writer) raw(text string) {
	if g.owed {
		g.bw.WriteByte('\n')
		g.owed = false
	}
	g.bw.WriteString(text)
}

// open starts a record with the envelope every chain record carries.
func (g *writer) open(typ string, sidechain bool) {
	g.buf = append(g.buf, `{"parentUuid":`...)
	if g.parent == "" {
		g.buf = append(g.buf, "null"...)
	} else {
		g.buf = appendString(g.buf, g.parent)
	}
	g.buf = append(g.buf, `,"isSidechain":`...)
	g.buf = strconv.AppendBool(g.buf, sidechain)
	g.buf = append(g.buf, `,"userType":"external","cwd":`...)
	g.buf = appendString(g.buf, g.cwd)
	g.buf = append(g.buf, `,"sessionId":`...)
	g.buf = appendString(g.buf, g.sessionID)
	g.buf = append(g.buf, `,"version":"`...)
	g.buf = append(g.buf, g.version...)
	g.buf = append(g.buf, `","gitBranch":"main","slug":"steady-amber-river","type":`...)
	g.buf = appendString(g.buf, typ)
}

// close ends a record with its uuid and timestamp and writes it.
func (g *writer) close() string {
	id := g.uuid()
	g.buf = append(g.buf, `,"uuid":"`...)
	g.buf = append(g.buf, id...)
	g.buf = append(g.buf, `","timestamp":`...)
	g.buf = g.timestamp(g.buf)
	g.buf = append(g.buf, '}')
	g.emit()
	g.parent = id
	return id
}

func (g *writer) timestamp(b []byte) []byte {
	g.clock += int64(5 + g.rng.IntN(900))
	b = append(b, '"')
	b = epoch.Add(time.Duration(g.clock)*time.Millisecond).AppendFormat(b, "2006-01-02T15:04:05.000Z")
	return append(b, '"')
}

// uuid returns a random version-4 UUID.
func (g *writer) uuid() string {
	const hex = "0123456789abcdef"
	var b [36]byte
	for i := range b {
		switch i {
		case 8, 13, 18, 23:
			b[i] = '-'
		case 14:
			b[i] = '4'
		default:
			b[i] = hex[g.rng.IntN(16)]
		}
	}
	return string(b[:])
}

// apiID returns an id like Anthropic's: a prefix and 24 base62 letters.
func (g *writer) apiID(prefix string) string {
	const letters = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	b := make([]byte, 0, len(prefix)+24)
	b = append(b, prefix...)
	for range 24 {
		b = append(b, letters[g.rng.IntN(len(letters))])
	}
	return string(b)
}

// tool is a tool call's name and input.
type tool struct{ name, input string }

var tools = []tool{
	{"Bash", `{"command":"go test ./internal/... 2>&1 | tail -40","description":"Run the internal tests"}`},
	{"Read", `{"file_path":"/home/user/project/internal/reading/tail.go"}`},
	{"Grep", `{"pattern":"func .*Reading","path":"/home/user/project","output_mode":"content","-n":true}`},
	{"Edit", `{"file_path":"/home/user/project/cmd/context-budget/hook.go","old_string":"return 0\n}","new_string":"return 0\n}\n","replace_all":false}`},
	{"Glob", `{"pattern":"**/*_test.go"}`},
}

// usage is a response's token counts. A response's records all carry
// the same input and cache figures; the output count grows across them.
type usage struct {
	input, write, read, out int64
	// oneHour writes the cache for an hour rather than five minutes.
	oneHour bool
}

func appendUsage(b []byte, u usage) []byte {
	w5, w1 := u.write, int64(0)
	if u.oneHour {
		w5, w1 = 0, u.write
	}
	b = append(b, `{"input_tokens":`...)
	b = strconv.AppendInt(b, u.input, 10)
	b = append(b, `,"cache_creation_input_tokens":`...)
	b = strconv.AppendInt(b, u.write, 10)
	b = append(b, `,"cache_read_input_tokens":`...)
	b = strconv.AppendInt(b, u.read, 10)
	b = append(b, `,"cache_creation":{"ephemeral_5m_input_tokens":`...)
	b = strconv.AppendInt(b, w5, 10)
	b = append(b, `,"ephemeral_1h_input_tokens":`...)
	b = strconv.AppendInt(b, w1, 10)
	b = append(b, `},"output_tokens":`...)
	b = strconv.AppendInt(b, u.out, 10)
	return append(b, `,"service_tier":"standard","inference_geo":"global"}`...)
}

// response is one API response of the main chain as its records carry
// it: one record per content block, all with its message and request id.
type response struct {
	id, request, model string
	// requested is the record's requestedModel; "" writes none, as
	// versions before 2.1.332 did.
	requested string
	usage
}

// openMessage appends an assistant message's head and leaves its content
// array open for one block.
func (g *writer) openMessage(model, id string) {
	g.buf = append(g.buf, `,"message":{"model":`...)
	g.buf = appendString(g.buf, model)
	g.buf = append(g.buf, `,"id":"`...)
	g.buf = append(g.buf, id...)
	g.buf = append(g.buf, `","type":"message","role":"assistant","content":[`...)
}

// openResponse starts one record of r and leaves its content array open
// for one block.
func (g *writer) openResponse(r *response) {
	g.open("assistant", false)
	g.openMessage(r.model, r.id)
}

// closeResponse ends one record of r with output count out and stop
// reason stop (JSON: "tool_use" on a 2.1.x response's last record, null
// elsewhere) and writes it.
func (g *writer) closeResponse(r *response, out int64, stop string) {
	g.buf = append(g.buf, `],"stop_reason":`...)
	g.buf = append(g.buf, stop...)
	g.buf = append(g.buf, `,"stop_sequence":null,"usage":`...)
	u := r.usage
	u.out = out
	g.buf = appendUsage(g.buf, u)
	g.buf = append(g.buf, `},"requestId":"`...)
	g.buf = append(g.buf, r.request...)
	g.buf = append(g.buf, '"')
	if r.requested != "" {
		g.buf = append(g.buf, `,"requestedModel":`...)
		g.buf = appendString(g.buf, r.requested)
	}
	g.close()
}

// thinkingBlock appends a thinking block of about n bytes.
func (g *writer) thinkingBlock(n int) {
	g.buf = append(g.buf, `{"type":"thinking","thinking":"`...)
	g.buf = appendText(g.buf, g.rng, n)
	g.buf = append(g.buf, `","signature":"[REDACTED_SIGNATURE]"}`...)
}

// textBlock appends a text block of about n bytes.
func (g *writer) textBlock(n int) {
	g.buf = append(g.buf, `{"type":"text","text":"`...)
	g.buf = appendText(g.buf, g.rng, n)
	g.buf = append(g.buf, `"}`...)
}

// toolUseBlock appends a call of t with id.
func (g *writer) toolUseBlock(id string, t tool) {
	g.buf = append(g.buf, `{"type":"tool_use","id":"`...)
	g.buf = append(g.buf, id...)
	g.buf = append(g.buf, `","name":"`...)
	g.buf = append(g.buf, t.name...)
	g.buf = append(g.buf, `","input":`...)
	if g.cwd != "" && g.cwd != defaultCwd {
		// The paths lie in the session's folder, wherever it is: an edit
		// there is the session acting.
		g.buf = append(g.buf, strings.ReplaceAll(t.input, defaultCwd, g.cwd)...)
	} else {
		g.buf = append(g.buf, t.input...)
	}
	g.buf = append(g.buf, `,"caller":{"type":"direct"}}`...)
}

// hookProgress writes the progress record of one hook run for a call.
func (g *writer) hookProgress(event, toolUseID string) {
	g.open("progress", false)
	g.buf = append(g.buf, `,"data":{"type":"hook_progress","hookEvent":"`...)
	g.buf = append(g.buf, event...)
	g.buf = append(g.buf, `","hookName":"`...)
	g.buf = append(g.buf, event...)
	g.buf = append(g.buf, `:Bash","command":"context-budget hook"},"parentToolUseID":"`...)
	g.buf = append(g.buf, toolUseID...)
	g.buf = append(g.buf, `","toolUseID":"`...)
	g.buf = append(g.buf, toolUseID...)
	g.buf = append(g.buf, '"')
	g.close()
}

// toolResult writes the user record holding a tool's output. Claude Code
// writes the output twice, in the message and in toolUseResult, so the
// line is about 2·size bytes.
func (g *writer) toolResult(toolUseID string, size int) {
	g.open("user", false)
	g.buf = append(g.buf, `,"message":{"role":"user","content":[{"tool_use_id":"`...)
	g.buf = append(g.buf, toolUseID...)
	g.buf = append(g.buf, `","type":"tool_result","content":"`...)
	start := len(g.buf)
	g.buf = appendText(g.buf, g.rng, size)
	text := g.buf[start:]
	g.buf = append(g.buf, `","is_error":false}]},"toolUseResult":{"stdout":"`...)
	g.buf = append(g.buf, text...)
	g.buf = append(g.buf, `","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false},"sourceToolAssistantUUID":`...)
	g.buf = appendString(g.buf, g.parent)
	g.close()
}

// prompt writes an operator prompt.
func (g *writer) prompt() {
	g.open("user", false)
	g.buf = append(g.buf, `,"message":{"role":"user","content":"`...)
	g.buf = appendText(g.buf, g.rng, 40+g.rng.IntN(600))
	g.buf = append(g.buf, `"},"thinkingMetadata":{"maxThinkingTokens":31999},"todos":[],"permissionMode":"bypassPermissions","promptId":"`...)
	g.buf = append(g.buf, g.uuid()...)
	g.buf = append(g.buf, '"')
	g.close()
}

// sidechainResponse writes a subagent's response as older versions did,
// in the main file with isSidechain set. Its usage, past any main-chain
// reading here, is not the session's reading.
func (g *writer) sidechainResponse() {
	g.open("assistant", true)
	g.buf = append(g.buf, `,"agentId":"a2898e3"`...)
	g.openMessage("claude-haiku-4-5-20251001", g.apiID("msg_01"))
	g.textBlock(100 + g.rng.IntN(2000))
	g.buf = append(g.buf, `],"stop_reason":"end_turn","stop_sequence":null,"usage":`...)
	g.buf = appendUsage(g.buf, usage{input: 3, write: 2000, read: int64(300_000 + g.rng.IntN(100_000)), out: 500, oneHour: true})
	g.buf = append(g.buf, '}')
	g.close()
}

// agentProgress writes the agent_progress record 2.1.x writes while a
// subagent works: it embeds the subagent's assistant message, with usage,
// which is not the session's reading either.
func (g *writer) agentProgress() {
	g.open("progress", false)
	g.buf = append(g.buf, `,"data":{"message":{"type":"assistant","message":{"model":"claude-haiku-4-5-20251001","id":"`...)
	g.buf = append(g.buf, g.apiID("msg_01")...)
	g.buf = append(g.buf, `","type":"message","role":"assistant","content":[`...)
	g.textBlock(200 + g.rng.IntN(4000))
	g.buf = append(g.buf, `],"stop_reason":null,"usage":`...)
	g.buf = appendUsage(g.buf, usage{input: 5, write: 1000, read: 350_000, out: 120, oneHour: true})
	g.buf = append(g.buf, `}},"type":"agent_progress","agentId":"a2898e3"},"toolUseID":"agent_msg_01","parentToolUseID":"toolu_01Agent"`...)
	g.close()
}

// interruption writes the user's interruption of a turn.
func (g *writer) interruption() {
	g.open("user", false)
	g.buf = append(g.buf, `,"message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user]"}]}`...)
	g.close()
}

// syntheticResponse writes a response no model served, with zero usage:
// the placeholder after an interruption, or an API error's
// (isApiErrorMessage).
func (g *writer) syntheticResponse(text string, apiError bool) {
	g.open("assistant", false)
	g.buf = append(g.buf, `,"message":{"id":"`...)
	g.buf = append(g.buf, g.uuid()...)
	g.buf = append(g.buf, `","container":null,"model":"<synthetic>","role":"assistant","stop_reason":"stop_sequence","stop_sequence":"","type":"message","usage":`...)
	g.buf = appendUsage(g.buf, usage{oneHour: true})
	g.buf = append(g.buf, `,"content":[{"type":"text","text":`...)
	g.buf = appendString(g.buf, text)
	g.buf = append(g.buf, `}]},"isApiErrorMessage":`...)
	g.buf = strconv.AppendBool(g.buf, apiError)
	g.close()
}

// boundary writes a compaction's boundary record: kind "compact" or
// "microcompact", automatic, at preTokens. The chain starts again after
// it.
func (g *writer) boundary(kind string, preTokens int64) {
	logical := g.parent
	g.parent = ""
	g.open("system", false)
	g.buf = append(g.buf, `,"subtype":"`...)
	g.buf = append(g.buf, kind...)
	g.buf = append(g.buf, `_boundary","content":"Conversation compacted","isMeta":false,"level":"info","logicalParentUuid":`...)
	g.buf = appendString(g.buf, logical)
	g.buf = append(g.buf, `,"`...)
	g.buf = append(g.buf, kind...)
	g.buf = append(g.buf, `Metadata":{"trigger":"auto","preTokens":`...)
	g.buf = strconv.AppendInt(g.buf, preTokens, 10)
	g.buf = append(g.buf, '}')
	g.close()
}

// compactSummary writes the summary that follows a compact_boundary.
func (g *writer) compactSummary() {
	g.open("user", false)
	g.buf = append(g.buf, `,"message":{"role":"user","content":"This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n`...)
	g.buf = appendText(g.buf, g.rng, summaryBytes)
	g.buf = append(g.buf, `"},"isVisibleInTranscriptOnly":true,"isCompactSummary":true`...)
	g.close()
}

// damage writes what a crash and a bad disk leave: a record cut short
// with the next one spliced onto it, a run of NULs, and a line that is
// not JSON.
func (g *writer) damage() {
	g.raw(`{"parentUuid":"x","type":"user","message":{"role":"user","content":"cut sho` +
		`{"type":"summary","summary":"spliced","leafUuid":"y"}` + "\n" +
		strings.Repeat("\x00", 64) + "\n" +
		"not json at all\n")
}

// The records below are not part of the chain; readers must skip them.

func (g *writer) snapshot() {
	id := g.uuid()
	g.buf = append(g.buf, `{"type":"file-history-snapshot","messageId":"`...)
	g.buf = append(g.buf, id...)
	g.buf = append(g.buf, `","snapshot":{"messageId":"`...)
	g.buf = append(g.buf, id...)
	g.buf = append(g.buf, `","trackedFileBackups":{"internal/reading/tail.go":{"backupFileName":"0f3a9c2e@v2","version":2,"backupTime":`...)
	g.buf = g.timestamp(g.buf)
	g.buf = append(g.buf, `}},"timestamp":`...)
	g.buf = g.timestamp(g.buf)
	g.buf = append(g.buf, `},"isSnapshotUpdate":false}`...)
	g.emit()
}

func (g *writer) queueOperation() {
	g.buf = append(g.buf, `{"type":"queue-operation","operation":"enqueue","timestamp":`...)
	g.buf = g.timestamp(g.buf)
	g.buf = append(g.buf, `,"sessionId":`...)
	g.buf = appendString(g.buf, g.sessionID)
	g.buf = append(g.buf, `,"content":"<task-notification>\n<status>completed</status>\n<summary>Background command \"Run the tests\" completed (exit code 0)</summary>\n</task-notification>"}`...)
	g.emit()
}

// apiRequest writes the request record of a call to model; oneM adds the
// 1M-context beta.
func (g *writer) apiRequest(model string, oneM bool) {
	g.buf = append(g.buf, `{"type":"api-request","requestId":"`...)
	g.buf = append(g.buf, g.apiID("req_011C")...)
	g.buf = append(g.buf, `","model":`...)
	g.buf = appendString(g.buf, model)
	g.buf = append(g.buf, `,"betas":["claude-code-20250219","interleaved-thinking-2025-05-14"`...)
	if oneM {
		g.buf = append(g.buf, `,"context-1m-2025-08-07"`...)
	}
	g.buf = append(g.buf, `],"sessionId":`...)
	g.buf = appendString(g.buf, g.sessionID)
	g.buf = append(g.buf, `,"timestamp":`...)
	g.buf = g.timestamp(g.buf)
	g.buf = append(g.buf, '}')
	g.emit()
}

func (g *writer) attachment() {
	g.open("attachment", false)
	g.buf = append(g.buf, `,"attachment":{"type":"todo_reminder","content":[{"content":"Run the benchmarks","status":"in_progress","activeForm":"Running the benchmarks"}],"itemCount":1}`...)
	g.close()
}

// costState writes Claude Code's running total, usd.
func (g *writer) costState(usd float64) {
	g.buf = append(g.buf, `{"type":"cost-state","sessionId":`...)
	g.buf = appendString(g.buf, g.sessionID)
	g.buf = append(g.buf, `,"totalCostUSD":`...)
	g.buf = strconv.AppendFloat(g.buf, usd, 'f', 4, 64)
	g.buf = append(g.buf, `,"timestamp":`...)
	g.buf = g.timestamp(g.buf)
	g.buf = append(g.buf, '}')
	g.emit()
}

func (g *writer) turnDuration() {
	g.open("system", false)
	g.buf = append(g.buf, `,"subtype":"turn_duration","durationMs":`...)
	g.buf = strconv.AppendInt(g.buf, int64(1000+g.rng.IntN(300_000)), 10)
	g.buf = append(g.buf, `,"isMeta":false`...)
	g.close()
}

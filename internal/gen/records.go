package gen

import (
	"strconv"
	"time"
)

// The records below follow the shapes Claude Code 2.1.x writes; field
// order and the envelope match real transcripts, so that a reader's cost
// per byte is measured on what it will meet.

var epoch = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)

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
	g.buf = appendString(g.buf, g.opt.Cwd)
	g.buf = append(g.buf, `,"sessionId":`...)
	g.buf = appendString(g.buf, g.opt.SessionID)
	g.buf = append(g.buf, `,"version":"`+version+`","gitBranch":"main","slug":"steady-amber-river","type":`...)
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

var tools = []struct{ name, input string }{
	{"Bash", `{"command":"go test ./internal/... 2>&1 | tail -40","description":"Run the internal tests"}`},
	{"Read", `{"file_path":"/home/user/project/internal/reading/tail.go"}`},
	{"Grep", `{"pattern":"func .*Reading","path":"/home/user/project","output_mode":"content","-n":true}`},
	{"Edit", `{"file_path":"/home/user/project/cmd/context-budget/hook.go","old_string":"return 0\n}","new_string":"return 0\n}\n","replace_all":false}`},
	{"Glob", `{"pattern":"**/*_test.go"}`},
}

// response writes one API response of the main chain: a record per
// content block, the same message id and input figures on each, the
// output count growing. It returns the ids of its tool calls and the
// response's output tokens.
func (g *writer) response(calls int) ([]string, int64) {
	msg := g.apiID("msg_01")
	req := g.apiID("req_011C")
	input := int64(1 + g.rng.IntN(9))
	read := min(g.cached, g.ctx-input)
	write := g.ctx - input - read
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
		g.open("assistant", false)
		g.buf = append(g.buf, `,"message":{"model":`...)
		g.buf = appendString(g.buf, g.opt.Model)
		g.buf = append(g.buf, `,"id":"`...)
		g.buf = append(g.buf, msg...)
		g.buf = append(g.buf, `","type":"message","role":"assistant","content":[`...)
		switch {
		case thinking && b == 0:
			g.buf = append(g.buf, `{"type":"thinking","thinking":"`...)
			g.buf = appendText(g.buf, g.rng, 200+g.rng.IntN(1500))
			g.buf = append(g.buf, `","signature":"[REDACTED_SIGNATURE]"}`...)
		case text && b == blocks-calls-1:
			g.buf = append(g.buf, `{"type":"text","text":"`...)
			g.buf = appendText(g.buf, g.rng, 60+g.rng.IntN(600))
			g.buf = append(g.buf, `"}`...)
		default:
			id := g.apiID("toolu_01")
			ids = append(ids, id)
			t := tools[g.rng.IntN(len(tools))]
			g.buf = append(g.buf, `{"type":"tool_use","id":"`...)
			g.buf = append(g.buf, id...)
			g.buf = append(g.buf, `","name":"`...)
			g.buf = append(g.buf, t.name...)
			g.buf = append(g.buf, `","input":`...)
			g.buf = append(g.buf, t.input...)
			g.buf = append(g.buf, `,"caller":{"type":"direct"}}`...)
		}
		g.buf = append(g.buf, `],"stop_reason":`...)
		if b == blocks-1 {
			g.buf = append(g.buf, `"tool_use"`...)
		} else {
			g.buf = append(g.buf, "null"...)
		}
		g.buf = append(g.buf, `,"stop_sequence":null,"usage":`...)
		g.buf = appendUsage(g.buf, input, write, read, out)
		g.buf = append(g.buf, `},"requestId":"`...)
		g.buf = append(g.buf, req...)
		g.buf = append(g.buf, `","requestedModel":`...)
		g.buf = appendString(g.buf, g.requestedModel())
		g.close()
	}
	g.res.Responses++
	g.res.Reading = g.ctx
	g.res.MessageID = msg
	g.res.ToolUseID = ids[len(ids)-1]
	return ids, out
}

func (g *writer) requestedModel() string {
	if g.opt.Window >= 1_000_000 {
		return g.opt.Model + "[1m]"
	}
	return g.opt.Model
}

func appendUsage(b []byte, input, write, read, out int64) []byte {
	b = append(b, `{"input_tokens":`...)
	b = strconv.AppendInt(b, input, 10)
	b = append(b, `,"cache_creation_input_tokens":`...)
	b = strconv.AppendInt(b, write, 10)
	b = append(b, `,"cache_read_input_tokens":`...)
	b = strconv.AppendInt(b, read, 10)
	b = append(b, `,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":`...)
	b = strconv.AppendInt(b, write, 10)
	b = append(b, `},"output_tokens":`...)
	b = strconv.AppendInt(b, out, 10)
	return append(b, `,"service_tier":"standard","inference_geo":"global"}`...)
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

// sidechain writes a subagent's records as older versions did, in the
// main file with isSidechain set, and the agent_progress record 2.1.x
// writes: both carry assistant messages with usage that are not the
// session's reading.
func (g *writer) sidechain() {
	for range 1 + g.rng.IntN(4) {
		g.open("assistant", true)
		g.buf = append(g.buf, `,"agentId":"a2898e3","message":{"model":"claude-haiku-4-5-20251001","id":"`...)
		g.buf = append(g.buf, g.apiID("msg_01")...)
		g.buf = append(g.buf, `","type":"message","role":"assistant","content":[{"type":"text","text":"`...)
		g.buf = appendText(g.buf, g.rng, 100+g.rng.IntN(2000))
		g.buf = append(g.buf, `"}],"stop_reason":"end_turn","stop_sequence":null,"usage":`...)
		g.buf = appendUsage(g.buf, 3, 2000, int64(300_000+g.rng.IntN(100_000)), 500)
		g.buf = append(g.buf, '}')
		g.close()
	}
	g.open("progress", false)
	g.buf = append(g.buf, `,"data":{"message":{"type":"assistant","message":{"model":"claude-haiku-4-5-20251001","id":"`...)
	g.buf = append(g.buf, g.apiID("msg_01")...)
	g.buf = append(g.buf, `","type":"message","role":"assistant","content":[{"type":"text","text":"`...)
	g.buf = appendText(g.buf, g.rng, 200+g.rng.IntN(4000))
	g.buf = append(g.buf, `"}],"stop_reason":null,"usage":`...)
	g.buf = appendUsage(g.buf, 5, 1000, 350_000, 120)
	g.buf = append(g.buf, `}},"type":"agent_progress","agentId":"a2898e3"},"toolUseID":"agent_msg_01","parentToolUseID":"toolu_01Agent"`...)
	g.close()
}

// synthetic writes an interrupted turn: the user's interruption and the
// placeholder response no model served, with zero usage.
func (g *writer) synthetic() {
	g.open("user", false)
	g.buf = append(g.buf, `,"message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user]"}]}`...)
	g.close()
	g.open("assistant", false)
	g.buf = append(g.buf, `,"message":{"id":"`...)
	g.buf = append(g.buf, g.uuid()...)
	g.buf = append(g.buf, `","container":null,"model":"<synthetic>","role":"assistant","stop_reason":"stop_sequence","stop_sequence":"","type":"message","usage":`...)
	g.buf = appendUsage(g.buf, 0, 0, 0, 0)
	g.buf = append(g.buf, `,"content":[{"type":"text","text":"No response requested."}]},"isApiErrorMessage":false`...)
	g.close()
}

// compaction writes a compact_boundary and the summary that follows it,
// and brings the context back down.
func (g *writer) compaction() {
	logical := g.parent
	g.parent = ""
	g.open("system", false)
	g.buf = append(g.buf, `,"subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"level":"info","logicalParentUuid":`...)
	g.buf = appendString(g.buf, logical)
	g.buf = append(g.buf, `,"compactMetadata":{"trigger":"auto","preTokens":`...)
	g.buf = strconv.AppendInt(g.buf, g.ctx, 10)
	g.buf = append(g.buf, '}')
	g.close()
	g.open("user", false)
	g.buf = append(g.buf, `,"message":{"role":"user","content":"This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n`...)
	g.buf = appendText(g.buf, g.rng, summaryBytes)
	g.buf = append(g.buf, `"},"isVisibleInTranscriptOnly":true,"isCompactSummary":true`...)
	g.close()
	g.res.Compactions++
	g.ctx = g.opt.Start + int64(g.rng.IntN(8000))
	g.cached = 0
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
	g.buf = appendString(g.buf, g.opt.SessionID)
	g.buf = append(g.buf, `,"content":"<task-notification>\n<status>completed</status>\n<summary>Background command \"Run the tests\" completed (exit code 0)</summary>\n</task-notification>"}`...)
	g.emit()
}

func (g *writer) apiRequest() {
	g.buf = append(g.buf, `{"type":"api-request","requestId":"`...)
	g.buf = append(g.buf, g.apiID("req_011C")...)
	g.buf = append(g.buf, `","model":`...)
	g.buf = appendString(g.buf, g.requestedModel())
	g.buf = append(g.buf, `,"betas":["claude-code-20250219","interleaved-thinking-2025-05-14"`...)
	if g.opt.Window >= 1_000_000 {
		g.buf = append(g.buf, `,"context-1m-2025-08-07"`...)
	}
	g.buf = append(g.buf, `],"sessionId":`...)
	g.buf = appendString(g.buf, g.opt.SessionID)
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

func (g *writer) costState() {
	g.buf = append(g.buf, `{"type":"cost-state","sessionId":`...)
	g.buf = appendString(g.buf, g.opt.SessionID)
	g.buf = append(g.buf, `,"totalCostUSD":`...)
	g.buf = strconv.AppendFloat(g.buf, float64(g.res.Responses)*0.071, 'f', 4, 64)
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

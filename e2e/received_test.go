package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Notice is one hook notice as the model saw it: the additionalContext
// Claude Code put in a system reminder inside a tool result.
type Notice struct {
	// ToolUseID is the tool_result that carried it; "" when it arrived
	// anywhere else, which no scenario expects.
	ToolUseID string
	// Tool is the tool named in "PostToolUse:<Tool> hook additional
	// context".
	Tool string
	Text string
	// Kind is the kind of the first request that carried it.
	Kind Kind
}

// Opening is the first sentence of a notice, parsed: design §6 pins that
// both notices open with the reading and the line.
type Opening struct {
	Level          string // "warning" or "pause"
	ReadingK, Line int64  // in thousands, as printed
}

var openingRE = regexp.MustCompile(`^Context budget: this (?:session|subagent) carries ~(\d+)k tokens of context, past (?:the|its) (\d+)k (warning|pause|wrap-up) line`)

// Opening parses the notice's opening, ok false when it has another shape.
func (n Notice) Opening() (o Opening, ok bool) {
	m := openingRE.FindStringSubmatch(n.Text)
	if m == nil {
		return o, false
	}
	o.ReadingK, _ = strconv.ParseInt(m[1], 10, 64)
	o.Line, _ = strconv.ParseInt(m[2], 10, 64)
	o.Level = m[3]
	return o, true
}

var reminderRE = regexp.MustCompile(`(?s)<system-reminder>\s*PostToolUse:(\S+) hook additional context: (.*?)\s*</system-reminder>`)

// Notices returns every distinct hook notice in what the mock received, in
// order of first appearance. A tool result is re-sent with every later
// request, so one notice is counted once per tool result, however many
// requests carried it.
func (s *Session) Notices() []Notice {
	var out []Notice
	seen := map[string]bool{}
	for _, r := range s.Mock.Requests() {
		var mr messageRequest
		if r.Path != "/v1/messages" || json.Unmarshal(r.Body, &mr) != nil {
			continue
		}
		for _, msg := range mr.Messages {
			for _, b := range blocks(msg.Content) {
				id, body := "", b.Text
				if b.Type == "tool_result" {
					id, body = b.ToolUseID, resultText(b.Content)
				}
				for _, m := range reminderRE.FindAllStringSubmatch(body, -1) {
					key := id + "\x00" + m[2]
					if seen[key] {
						continue
					}
					seen[key] = true
					out = append(out, Notice{ToolUseID: id, Tool: m[1], Text: m[2], Kind: r.Kind})
				}
			}
		}
	}
	return out
}

// resultText joins the text of a tool_result's content, a string or a list
// of blocks.
func resultText(raw json.RawMessage) string {
	var parts []string
	for _, b := range blocks(raw) {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}

// Call is one tool call the mock made the model issue.
type Call struct {
	ID, Tool string
	Kind     Kind
	// Turn and Block locate the call in the script.
	Turn, Block int
	// Reading is the context the response that made the call reported.
	Reading int64
}

// Calls returns every tool call the mock issued, in order.
func (s *Session) Calls() []Call {
	var out []Call
	for _, r := range s.Mock.Requests() {
		if r.Served == nil {
			continue
		}
		for i, b := range r.Served.blocks {
			if b.Tool != "" {
				out = append(out, Call{ID: b.ID, Tool: b.Tool, Kind: r.Kind, Turn: r.Turn, Block: i, Reading: r.Served.usage.Reading()})
			}
		}
	}
	return out
}

// Count returns how many requests of kind k the mock received.
func (s *Session) Count(k Kind) int {
	n := 0
	for _, r := range s.Mock.Requests() {
		if r.Kind == k {
			n++
		}
	}
	return n
}

// Timeline renders the run for a failure message: each request, each call
// it made, and the notice each call's result carried.
func (s *Session) Timeline() string {
	byID := map[string][]string{}
	for _, n := range s.Notices() {
		o, ok := n.Opening()
		label := "unparsed notice"
		if ok {
			label = fmt.Sprintf("%s notice (~%dk past %dk)", o.Level, o.ReadingK, o.Line)
		}
		byID[n.ToolUseID] = append(byID[n.ToolUseID], label)
	}
	var b strings.Builder
	for i, r := range s.Mock.Requests() {
		fmt.Fprintf(&b, "  #%d %s %s?%s %s", i, r.Method, r.Path, r.Query, r.Kind)
		if r.Turn >= 0 {
			fmt.Fprintf(&b, " turn %d", r.Turn)
		}
		if r.Served != nil {
			fmt.Fprintf(&b, " → reading %d, %s", r.Served.usage.Reading(), r.Served.stopReason())
			for _, bl := range r.Served.blocks {
				if bl.Tool != "" {
					fmt.Fprintf(&b, "\n      %s %s: %s", bl.ID, bl.Tool, strings.Join(byID[bl.ID], "; "))
				}
			}
		}
		b.WriteByte('\n')
	}
	if stray := byID[""]; len(stray) > 0 {
		fmt.Fprintf(&b, "  outside any tool result: %s\n", strings.Join(stray, "; "))
	}
	return b.String()
}

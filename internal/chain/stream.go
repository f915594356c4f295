package chain

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/muthur/context-budget/internal/reading"
)

// The runner reads `claude -p --output-format stream-json --verbose`, one
// JSON object a line: the system init event (slash_commands), assistant
// messages (the session's own text when parent_tool_use_id is null), the
// informational system events (what a hook's stop told the user) and the
// result event. The format changes between versions, so every field is
// optional, a line that does not decode is skipped, and unknown types
// are ignored.
//
// The agent's tools can write to claude's standard output too (through
// /proc/<claude's pid>/fd/1), so nothing read here is spend, and a result
// event counts only when it carries the session's id and is the last of
// those: the runner reads it once the session's process tree has ended.

// result is the final result event of a session.
type result struct {
	Subtype        string   `json:"subtype"`
	Result         string   `json:"result"`
	SessionID      string   `json:"session_id"`
	TerminalReason string   `json:"terminal_reason"`
	Errors         []string `json:"errors"`
}

// streamed is what the runner keeps of a session's stream.
type streamed struct {
	result   *result
	relay    string
	hookSaid string
}

// event is one line of the stream, as far as the runner reads it.
type event struct {
	Type    string `json:"type"`
	Subtype string `json:"subtype"`
	// Parent is the tool call a subagent's message belongs to.
	Parent *string `json:"parent_tool_use_id"`
	// Message is an assistant's message.
	Message json.RawMessage `json:"message"`
	// Content is an informational system event's text.
	Content json.RawMessage `json:"content"`
	// Commands are the init event's slash commands.
	Commands []string `json:"slash_commands"`
}

// block is one content block of an assistant's message.
type block struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// follow reads the stream of session id to its end, printing the
// session's own text to out as it arrives, and keeps what the runner
// needs.
func follow(r io.Reader, out io.Writer, id string) streamed {
	var st streamed
	lr := reading.NewReader(r)
	lr.Final = true
	for {
		line, err := lr.Next()
		if err != nil {
			return st
		}
		take(&st, line, out, id)
	}
}

// take reads one line of session id's stream into st.
func take(st *streamed, line []byte, out io.Writer, id string) {
	var e event
	if json.Unmarshal(line, &e) != nil {
		return
	}
	switch e.Type {
	case "system":
		switch e.Subtype {
		case "init":
			st.relay = relayName(e.Commands)
		case "informational":
			var text string
			if json.Unmarshal(e.Content, &text) == nil && text != "" {
				io.WriteString(out, "Claude Code: "+OneLine(text)+"\n")
				if strings.Contains(text, " says: ") {
					st.hookSaid = OneLine(text)
				}
			}
		}
	case "assistant":
		if e.Parent != nil {
			return
		}
		var m struct {
			Content []block `json:"content"`
		}
		if json.Unmarshal(e.Message, &m) != nil {
			return
		}
		for _, b := range m.Content {
			if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
				io.WriteString(out, strings.TrimRight(b.Text, "\n")+"\n")
			}
		}
	case "result":
		var res result
		if json.Unmarshal(line, &res) == nil && res.SessionID == id {
			st.result = &res
		}
	}
}

// relayName is the relay skill's name as a session's command list gives
// it: /relay when the skills are installed in a settings folder,
// /context-budget:relay from the plugin; "" when it lists neither.
func relayName(commands []string) string {
	plugin := false
	for _, c := range commands {
		switch c {
		case "relay":
			return "/relay"
		case "context-budget:relay":
			plugin = true
		}
	}
	if plugin {
		return "/context-budget:relay"
	}
	return ""
}

// OneLine collapses whitespace, for a message or a prompt on one line.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

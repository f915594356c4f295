package orientation

import (
	"encoding/json"
	"strings"

	"github.com/muthur/context-budget/internal/transcript"
)

// PromptLimit is the length, in characters, an opening prompt is cut at.
const PromptLimit = 160

// operatorPrompt returns the operator's prompt in a user record of the main
// chain: not Claude Code's own (meta) record, nor a compaction's summary.
func operatorPrompt(r *transcript.Record) (string, bool) {
	if r.IsMeta || r.IsSidechain || r.IsCompactSummary || r.Message == nil {
		return "", false
	}
	return PromptText(r.Message.Content)
}

// PromptText returns the operator's text in a user record's content,
// normalised (NormalizePrompt): the string, or the text blocks of an
// array (tool results are not prompts). Output Claude Code writes as a
// user record (a local command's stdout, the interruption marker) is not
// a prompt either.
func PromptText(raw json.RawMessage) (string, bool) {
	var text string
	switch {
	case len(raw) > 0 && raw[0] == '"':
		if json.Unmarshal(raw, &text) != nil {
			return "", false
		}
	case len(raw) > 0 && raw[0] == '[':
		var parts []string
		for _, b := range transcript.Blocks(raw) {
			if b.Type == "text" {
				parts = append(parts, b.Text)
			}
		}
		text = strings.Join(parts, " ")
	default:
		return "", false
	}
	t := strings.TrimSpace(text)
	if t == "" || strings.HasPrefix(t, "<local-command-stdout>") || strings.HasPrefix(t, "<local-command-stderr>") ||
		strings.HasPrefix(t, "[Request interrupted") {
		return "", false
	}
	return NormalizePrompt(t), true
}

// NormalizePrompt turns a prompt into the ledger's opening prompt: a slash
// command's envelope (<command-name>/x</command-name> …
// <command-args>y</command-args>) becomes "/x y", runs of whitespace
// become one space, and the result is cut at PromptLimit characters.
func NormalizePrompt(text string) string {
	if name, ok := tag(text, "command-name"); ok {
		name = strings.TrimSpace(name)
		if name != "" && !strings.HasPrefix(name, "/") {
			name = "/" + name
		}
		args, _ := tag(text, "command-args")
		text = name + " " + args
	}
	text = strings.Join(strings.Fields(text), " ")
	n := 0
	for i := range text {
		if n == PromptLimit {
			return text[:i]
		}
		n++
	}
	return text
}

// tag returns the text between <name> and </name>.
func tag(s, name string) (string, bool) {
	_, rest, ok := strings.Cut(s, "<"+name+">")
	if ok {
		rest, _, ok = strings.Cut(rest, "</"+name+">")
	}
	if !ok {
		return "", false
	}
	return rest, true
}

package orientation

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/muthur/context-budget/internal/transcript"
)

// PromptLimit is the length, in characters, an opening prompt is cut at.
const PromptLimit = 160

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
	if utf8.RuneCountInString(text) > PromptLimit {
		n := 0
		for i := range text {
			if n == PromptLimit {
				text = text[:i]
				break
			}
			n++
		}
	}
	return text
}

// tag returns the text between <name> and </name>.
func tag(s, name string) (string, bool) {
	open, close := "<"+name+">", "</"+name+">"
	i := strings.Index(s, open)
	if i < 0 {
		return "", false
	}
	rest := s[i+len(open):]
	j := strings.Index(rest, close)
	if j < 0 {
		return "", false
	}
	return rest[:j], true
}

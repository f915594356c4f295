package chain

import (
	"bytes"
	"strings"
	"unicode"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
)

// lastMessage is the text of a session's last message: the session's own
// last response (not a subagent's, not Claude Code's placeholder), all
// of its text blocks, from the end of its transcript. "" when it has
// none.
func lastMessage(name string) string {
	f, fi, err := reading.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	id := ""
	var parts []string
	reading.ScanBack(f, fi.Size(), func(line []byte) bool {
		if !bytes.Contains(line, []byte(`"assistant"`)) {
			return true
		}
		more := true
		transcript.Decode(line, func(rec *transcript.Record) {
			m := rec.Message
			if rec.Type != "assistant" || rec.IsSidechain || m == nil || m.Model == transcript.Synthetic {
				return
			}
			if id != "" && m.ID != id {
				more = false // an earlier response: the last one is read
				return
			}
			id = m.ID
			// Claude Code writes a response's blocks one record each; read
			// backwards, they come last first.
			var text []string
			for _, b := range transcript.Blocks(m.Content) {
				if b.Type == "text" {
					text = append(text, b.Text)
				}
			}
			parts = append([]string{strings.Join(text, "\n")}, parts...)
			if id == "" {
				more = false // no id: this record is the message
			}
		})
		return more
	})
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

// Waits reports whether a session's last message leaves it waiting for a
// person: its last marker is MarkWaiting; or it carries neither marker
// and its last sentence asks (ends with a question mark, asks). With the
// done marker last, or no marker and no question, the session is
// finished.
func Waits(message string) bool {
	w, d := strings.LastIndex(message, MarkWaiting), strings.LastIndex(message, MarkDone)
	if w >= 0 || d >= 0 {
		return w > d
	}
	return asks(message)
}

// asks reports whether text ends with a question mark, looked for past
// what may follow a question: closing quotes, brackets and emphasis,
// emoji and other symbols, and one trailing parenthetical such as
// "(yes/no)".
func asks(text string) bool {
	end := strings.TrimRightFunc(text, closing)
	if strings.HasSuffix(end, "?") || strings.HasSuffix(end, "？") {
		return true
	}
	end = strings.TrimRightFunc(text, func(r rune) bool { return unicode.IsSpace(r) || decoration(r) })
	if !strings.HasSuffix(end, ")") && !strings.HasSuffix(end, "）") {
		return false
	}
	open := max(strings.LastIndex(end, "("), strings.LastIndex(end, "（"))
	if open < 0 {
		return false
	}
	end = strings.TrimRightFunc(end[:open], closing)
	return strings.HasSuffix(end, "?") || strings.HasSuffix(end, "？")
}

// closing is what may follow a question's mark: space, closing quotes
// and brackets, emphasis, emoji and other symbols.
func closing(r rune) bool {
	return unicode.IsSpace(r) || decoration(r) || unicode.In(r, unicode.Pe, unicode.Pf) || strings.ContainsRune("*_`\"'", r)
}

// decoration is an emoji or another symbol, or what joins and varies
// one (a zero-width joiner, a variation selector).
func decoration(r rune) bool {
	return unicode.IsSymbol(r) || unicode.In(r, unicode.Mn, unicode.Cf)
}

// lastWords is a waiting session's message as the runner prints it: the
// markers' lines left out, and at most maxWords bytes of its end.
func lastWords(message string) string {
	var keep []string
	for _, l := range strings.Split(message, "\n") {
		if t := strings.TrimSpace(l); t == MarkWaiting || t == MarkDone {
			continue
		}
		keep = append(keep, l)
	}
	out := strings.TrimSpace(strings.Join(keep, "\n"))
	if len(out) > maxWords {
		cut := len(out) - maxWords
		for cut < len(out) && out[cut]&0xc0 == 0x80 {
			cut++ // not inside a character
		}
		out = "…" + out[cut:]
	}
	return out
}

// maxWords bounds the last words printed.
const maxWords = 2000

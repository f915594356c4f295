package cli

import (
	"fmt"
	"io"
	"reflect"
	"unicode/utf8"
)

// The commands' output rules, in one place:
//
//   - Results go to stdout. A command that cannot do what it was asked
//     says so on stderr, "context-budget: error: …" and, where there is
//     something to do about it, "context-budget: hint: …", and exits 1
//     (fail); a usage error exits 2 and points at the command's --help
//     (usageError).
//   - Every field that comes from a file or a payload — a ledger row's
//     branch and prompt, a price file's as_of, a settings file's env
//     value, a session id, a path, an error's text — reaches the
//     terminal through shown: a control character, an escape sequence or
//     a bidirectional override is shown escaped, so a committed file
//     cannot clear the screen, write the clipboard (OSC 52) or hide a
//     line. printf applies it to every string, error and Stringer it
//     formats; JSON goes out through writeJSON, which escapes the same
//     characters inside its strings (encoding/json leaves DEL and the C1
//     controls raw).
//   - The hook and the status line print only what Claude Code reads,
//     and nothing on failure (package hook).

// shown returns s as it may reach a terminal: printable text as it is;
// tab, newline and carriage return as \t, \n, \r; every other control
// character (C0, DEL, C1) and each byte that is not UTF-8 as \xHH or
// \uHHHH; the bidirectional controls and the line and paragraph
// separators as \uHHHH.
func shown(s string) string { return escaped(s, false) }

// shownLines is shown for text of several lines (a diff of a settings
// file): its newlines and tabs are kept.
func shownLines(s string) string { return escaped(s, true) }

func escaped(s string, lines bool) string {
	var b []byte
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case !unsafe(r, n) || lines && (r == '\n' || r == '\t'):
			b = append(b, s[i:i+n]...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case n == 1:
			// A control character below 0x80, or a byte that is not UTF-8.
			b = fmt.Appendf(b, `\x%02x`, s[i])
		default:
			b = fmt.Appendf(b, `\u%04x`, r)
		}
		i += n
	}
	return string(b)
}

// unsafe reports whether the rune r, n bytes long in its text, is one
// shown escapes.
func unsafe(r rune, n int) bool {
	switch {
	case r == utf8.RuneError && n == 1:
		return true
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c,
		r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// printf is fmt.Fprintf with every string, error and fmt.Stringer among a
// shown: the format is ours, the arguments may come from files.
func printf(w io.Writer, format string, a ...any) {
	fmt.Fprintf(w, format, shownArgs(a)...)
}

// shownArgs returns a with its text made safe by shown.
func shownArgs(a []any) []any {
	out := make([]any, len(a))
	for i, v := range a {
		switch v := v.(type) {
		case string:
			out[i] = shown(v)
		case error:
			out[i] = shown(v.Error())
		case fmt.Stringer:
			out[i] = shown(v.String())
		default:
			// A named string type (a scope, what set a line) is text too.
			if rv := reflect.ValueOf(v); rv.Kind() == reflect.String {
				out[i] = shown(rv.String())
			} else {
				out[i] = v
			}
		}
	}
	return out
}

// writeJSON writes encoded JSON and a newline, the characters shown
// escapes written as \u escapes inside its strings: the same JSON to a
// parser, nothing a terminal acts on.
func writeJSON(w io.Writer, data []byte) {
	w.Write(append(shownJSON(data), '\n'))
}

// shownJSON escapes in JSON text what shown escapes and encoding/json
// leaves raw (DEL, the C1 controls, the bidirectional controls; the
// other C0 controls cannot appear raw in valid JSON). Outside a string
// these characters are not valid JSON, so only strings change.
func shownJSON(data []byte) []byte {
	var b []byte
	last := 0
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r >= 0x20 && r != utf8.RuneError && unsafe(r, n) {
			if b == nil {
				b = make([]byte, 0, len(data)+16)
			}
			b = append(b, data[last:i]...)
			b = fmt.Appendf(b, `\u%04x`, r)
			last = i + n
		}
		i += n
	}
	if b == nil {
		return data
	}
	return append(b, data[last:]...)
}

// fail prints a command-line error and a hint, the CLI's way of saying
// no, and returns exit status 1. Both are shown: an error may quote a
// file.
func fail(stderr io.Writer, err error, hint string) int {
	printf(stderr, "context-budget: error: %v\n", err)
	if hint != "" {
		printf(stderr, "context-budget: hint: %s\n", hint)
	}
	return 1
}

// usageError prints a usage error and the hint where the command's usage
// is, and returns exit status 2. name is the subcommand, "" for none.
func usageError(stderr io.Writer, name string, err error) int {
	printf(stderr, "context-budget: error: %v\n", err)
	if name == "" {
		printf(stderr, "context-budget: hint: see 'context-budget help'\n")
	} else {
		printf(stderr, "context-budget: hint: see 'context-budget %s --help'\n", name)
	}
	return 2
}

// shownWriter passes text on to w as shownLines shows it: a session's
// text and claude's own errors reach the terminal through it. A
// character split between two writes is held until the next, or Flush.
type shownWriter struct {
	w    io.Writer
	rest []byte
}

func (s *shownWriter) Write(p []byte) (int, error) {
	data := append(s.rest, p...)
	// Hold back an incomplete character at the end: at most 3 bytes.
	cut := len(data)
	for i := len(data) - 1; i >= 0 && i >= len(data)-3; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				cut = i
			}
			break
		}
	}
	s.rest = append([]byte(nil), data[cut:]...)
	if _, err := io.WriteString(s.w, shownLines(string(data[:cut]))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what a Write held back, shown.
func (s *shownWriter) Flush() {
	if len(s.rest) > 0 {
		io.WriteString(s.w, shownLines(string(s.rest)))
		s.rest = nil
	}
}

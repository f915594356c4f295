package cli

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestShown(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"main", "main"},
		{"café – naïve ✓ 👩‍💻", "café – naïve ✓ 👩‍💻"},
		{"a\x1b]52;c;aGk=\x07b", `a\x1b]52;c;aGk=\x07b`},
		{"\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"tab\there\nnew\rcr", `tab\there\nnew\rcr`},
		{"del\x7f", `del\x7f`},
		{"c1 \u009b2J", `c1 \u009b2J`},
		{"bidi \u202eevil\u202c", `bidi \u202eevil\u202c`},
		{"isolate \u2066x\u2069", `isolate \u2066x\u2069`},
		{"line\u2028sep", `line\u2028sep`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"nul\x00", `nul\x00`},
		{`back\slash`, `back\slash`},
	} {
		if got := shown(tc.in); got != tc.want {
			t.Errorf("shown(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := shownLines("- a\x1b[2J\n+\tb\n"); got != "- a\\x1b[2J\n+\tb\n" {
		t.Errorf("shownLines: %q", got)
	}
}

// TestPrintfShowsArgs: printf makes every text argument safe, named
// string types and errors included, and leaves numbers and the format.
func TestPrintfShowsArgs(t *testing.T) {
	type scope string
	var b strings.Builder
	printf(&b, "%s|%v|%s|%d|%5.1f\n", "x\x1b", errString("e\x07"), scope("s\u009b"), 42, 1.25)
	if got, want := b.String(), "x\\x1b|e\\x07|s\\u009b|42|  1.2\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// FuzzShown: what shown returns is valid UTF-8 with no character a
// terminal acts on, and text with none is returned as it is.
func FuzzShown(f *testing.F) {
	for _, s := range []string{"", "main", "\x1b]52;c;x\x07", "\u009b", "\xff", "\u202e", "é\t\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := shown(s)
		if !utf8.ValidString(got) {
			t.Fatalf("shown(%q) = %q: not UTF-8", s, got)
		}
		clean := true
		for i, r := range s {
			if unsafe(r, len(string(r))) || r == utf8.RuneError && !utf8.ValidString(s[i:i+1]) {
				clean = false
			}
		}
		for _, r := range got {
			if unsafe(r, utf8.RuneLen(r)) {
				t.Fatalf("shown(%q) = %q: holds %U", s, got, r)
			}
		}
		if clean && utf8.ValidString(s) && got != s {
			t.Fatalf("shown changed clean text %q to %q", s, got)
		}
	})
}

// FuzzShownJSON: writeJSON's text means the same to a parser and holds
// nothing a terminal acts on.
func FuzzShownJSON(f *testing.F) {
	for _, s := range []string{"", "x", "\u007f\u0085\u009b[2J", "\u202e", "a\"b\\c", "\x1b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		data, err := json.Marshal(map[string]any{"k": s, "n": []string{s, "x"}})
		if err != nil {
			t.Skip()
		}
		got := shownJSON(data)
		var a, b any
		if json.Unmarshal(data, &a) != nil || json.Unmarshal(got, &b) != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("shownJSON(%s) = %s: not the same JSON", data, got)
		}
		for _, r := range string(got) {
			if r != utf8.RuneError && unsafe(r, utf8.RuneLen(r)) {
				t.Fatalf("shownJSON(%s) = %s: holds %U", data, got, r)
			}
		}
	})
}

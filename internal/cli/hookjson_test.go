package cli

import (
	"encoding/json"
	"testing"
)

// hookJSON must write what json.Marshal of hookOutput writes, for any
// text: Claude Code parses the hook's stdout as JSON.
func checkHookJSON(t *testing.T, event, text string) {
	t.Helper()
	want, err := json.Marshal(hookOutput{Specific: hookSpecific{Event: event, Context: text}})
	if err != nil {
		t.Fatal(err)
	}
	if got := hookJSON(event, text); string(got) != string(want) {
		t.Fatalf("hookJSON(%q, %q) =\n%s\nwant\n%s", event, text, got, want)
	}
}

var hookJSONSeeds = []string{"", "plain", "a \"quoted\" \\ back\nslash\t\r\b\f", "<html> & co", "\x00\x01\x1f\x7f",
	"\u2028\u2029 é ✓ 🚀", "\xff\xfe bad utf-8 \xc3", "past the 300k warning line ($0.20)"}

func TestHookJSON(t *testing.T) {
	for _, s := range hookJSONSeeds {
		checkHookJSON(t, "PostToolUse", s)
		checkHookJSON(t, s, "x")
	}
}

func FuzzHookJSON(f *testing.F) {
	for _, s := range hookJSONSeeds {
		f.Add("PostToolUse", s)
	}
	f.Fuzz(func(t *testing.T, event, text string) {
		checkHookJSON(t, event, text)
	})
}

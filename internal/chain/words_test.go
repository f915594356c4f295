package chain

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/fuse"
)

// TestWaits: the last marker decides; without one, a last sentence that
// asks waits.
func TestWaits(t *testing.T) {
	for msg, want := range map[string]bool{
		"Done: the tests pass.\n\n" + MarkDone:                                  false,
		"Before step 3 I need a decision.\n" + MarkWaiting:                      true,
		"Shall I go on?\n" + MarkDone:                                           false,
		"Before step 3 I need a decision: A or B? Tell me and I will carry on.": false,
		"Before step 3 I need a decision: should I use A or B?":                 true,
		"Which one do you want?**":                                              true,
		"Which one (A or B)?)\n\n":                                              true,
		MarkWaiting + "\nAnyway, " + MarkDone:                                   false,
		MarkDone + " then later " + MarkWaiting:                                 true,
		"All done.":                                                             false,
		"":                                                                      false,
		// The red team's texts, with no marker.
		"Which option should I take, A or B?":                                                    true,
		"**Should I proceed with the migration?**":                                               true,
		"どちらのデータベースを使いますか？":                                                                      true,
		"Shall I continue? 🙂":                                                                    true,
		"Shall I continue? 👍🏽":                                                                   true,
		"Shall I continue? ❤️":                                                                   true,
		"Do you want me to merge it? (yes/no)":                                                   true,
		"Do you want me to merge it? (yes/no) 🙂":                                                 true,
		"Do you want me to merge it?（はい／いいえ）":                                                    true,
		"Merged it (as you asked).":                                                              false,
		"Done 🎉":                                                                                 false,
		"Should I use Postgres or SQLite? Let me know.":                                          false,
		"I need your decision on the database before I go on: Postgres or SQLite.":               false,
		"All done: renamed valid to valid?":                                                      true,
		"Done. The runner marks waiting sessions with `" + MarkWaiting + "` in their last line.": true,
		"Should I proceed?\n" + MarkDone:                                                         false,
	} {
		if got := Waits(msg); got != want {
			t.Errorf("Waits(%q) = %v, want %v", msg, got, want)
		}
	}
}

// TestLastWords leaves the markers' lines out and keeps the end of a
// long message, whole characters only.
func TestLastWords(t *testing.T) {
	if got := lastWords("Which do you want, A or B?\n" + MarkWaiting + "\n"); got != "Which do you want, A or B?" {
		t.Errorf("lastWords = %q", got)
	}
	long := strings.Repeat("é", maxWords) + " A or B?"
	got := lastWords(long)
	if !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "A or B?") || len(got) > maxWords+len("…") || strings.ContainsRune(got, '\uFFFD') {
		t.Errorf("a long message: %d bytes, %q…", len(got), got[:20])
	}
}

// TestLastMessage reads the session's own last response, all its text
// blocks (one record each), not a subagent's nor Claude Code's own.
func TestLastMessage(t *testing.T) {
	lines := []string{
		`{"type":"assistant","message":{"id":"m1","model":"claude-opus-4-6","content":[{"type":"text","text":"Earlier."}]}}`,
		`{"type":"assistant","message":{"id":"m2","model":"claude-opus-4-6","content":[{"type":"thinking","thinking":"hm"}]}}`,
		`{"type":"assistant","message":{"id":"m2","model":"claude-opus-4-6","content":[{"type":"text","text":"First part."}]}}`,
		`{"type":"assistant","message":{"id":"m2","model":"claude-opus-4-6","content":[{"type":"text","text":"Shall I go on?"}]}}`,
		`{"type":"assistant","isSidechain":true,"message":{"id":"s1","model":"claude-opus-4-6","content":[{"type":"text","text":"A subagent."}]}}`,
		`{"type":"assistant","message":{"id":"x","model":"<synthetic>","content":[{"type":"text","text":"No response requested."}]}}`,
		`{"type":"system","subtype":"turn_duration"}`,
	}
	name := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(name, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	if got := lastMessage(name); got != "First part.\nShall I go on?" {
		t.Errorf("lastMessage = %q", got)
	}
	if got := lastMessage(filepath.Join(t.TempDir(), "none.jsonl")); got != "" {
		t.Errorf("no transcript: %q", got)
	}
}

// TestTransient: a start that failed before its first response for a
// cause that passes is started again; one that failed otherwise, or
// after a response, or by a signal, is not.
func TestTransient(t *testing.T) {
	overloaded := &result{Result: "API Error: 529 Overloaded. This is a server-side issue"}
	for _, tc := range []struct {
		out       outcome
		responses int64
		want      bool
	}{
		{outcome{exit: 1, result: overloaded}, 0, true},
		{outcome{exit: 1, stderr: "API Error: 503 Service Unavailable"}, 0, true},
		{outcome{exit: 1, stderr: "Connection error: connect ECONNREFUSED 127.0.0.1:443"}, 0, true},
		{outcome{exit: 1, result: overloaded}, 1, false},
		{outcome{exit: 0, result: overloaded}, 0, false},
		{outcome{exit: 1, stderr: "Invalid API key · Please run /login"}, 0, false},
		{outcome{exit: 1, stderr: "API Error: 400 prompt is too long"}, 0, false},
		{outcome{exit: 1, result: overloaded, signal: os.Interrupt}, 0, false},
	} {
		got := transient(tc.out, fuse.Sum{Responses: tc.responses})
		if (got != "") != tc.want {
			t.Errorf("%+v with %d responses: %q, want transient %v", tc.out, tc.responses, got, tc.want)
		}
	}
}

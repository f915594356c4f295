package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// Want is one notice a scenario expects: its level ("warning" or "pause")
// on a call of the main script's turn Turn, or "wrap-up" on a call of the
// subagent script's turn Turn (design §16). Block is the call's index in
// that turn's content, or anyBlock when the turn makes parallel calls and
// exactly one of them must carry the notice.
type Want struct {
	Level       string
	Turn, Block int
}

const anyBlock = -1

// Expect is what a scenario must see in what the mock received.
type Expect struct {
	// Warn and Pause are the lines in force, in tokens; Sub the
	// subagent's wrap-up line.
	Warn, Pause, Sub int64
	// Notices are every notice of the run, no more, no fewer.
	Notices []Want
	// Compactions is how many summarisation requests the CLI sent.
	Compactions int
}

func warnAt(turn, block int) Want   { return Want{"warning", turn, block} }
func pauseAt(turn, block int) Want  { return Want{"pause", turn, block} }
func wrapUpAt(turn, block int) Want { return Want{"wrap-up", turn, block} }

// check asserts the run went through its script and the model was shown
// exactly the expected notices, each on the call whose own response crossed
// the line, carrying that response's reading.
func check(t *testing.T, s *Session, script Script, e Expect) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf(format, args...)
	}
	if s.Err != nil {
		fail("claude exited with %v; stderr: %s", s.Err, s.Stderr)
	}
	served := map[Kind]int{}
	for _, r := range s.Mock.Requests() {
		if (r.Kind == KindMain || r.Kind == KindSubagent) && r.Turn < 0 {
			fail("a %s request came after the script ran out: the CLI did not follow the script", r.Kind)
		}
		if r.Turn >= 0 {
			served[r.Kind]++
		}
	}
	if served[KindMain] != len(script.Main) || served[KindSubagent] != len(script.Sub) {
		fail("served %d of %d main turns and %d of %d subagent turns", served[KindMain], len(script.Main), served[KindSubagent], len(script.Sub))
	}
	if got := s.Count(KindCompaction); got != e.Compactions {
		fail("%d compaction requests, want %d", got, e.Compactions)
	}

	calls := map[string]Call{}
	for _, c := range s.Calls() {
		calls[c.ID] = c
	}
	matched := make([]bool, len(e.Notices))
	for _, n := range s.Notices() {
		c, ok := calls[n.ToolUseID]
		switch {
		case n.ToolUseID == "":
			fail("a notice outside any tool result: %q", n.Text)
			continue
		case !ok:
			fail("a notice on %s, a call the mock never made", n.ToolUseID)
			continue
		}
		o, ok := n.Opening()
		if !ok {
			fail("notice on %s does not open with the reading and the line: %q", c.ID, n.Text)
			continue
		}
		if sub := c.Kind == KindSubagent || n.Kind == KindSubagent; sub != (o.Level == "wrap-up") {
			fail("a %s notice on a %s call (%s turn %d): a subagent gets its own wrap-up notice, never the session's", o.Level, c.Kind, c.ID, c.Turn)
			continue
		}
		line := e.Warn
		switch o.Level {
		case "pause":
			line = e.Pause
		case "wrap-up":
			line = e.Sub
		}
		if o.Line != kilo(line) {
			fail("%s notice on %s names the %dk line, want %dk", o.Level, c.ID, o.Line, kilo(line))
		}
		if o.ReadingK != kilo(c.Reading) {
			fail("%s notice on %s (turn %d) says ~%dk, but that call's response read %d: the hook took another response's reading",
				o.Level, c.ID, c.Turn, o.ReadingK, c.Reading)
		}
		i := match(e.Notices, matched, o.Level, c)
		if i < 0 {
			fail("unexpected %s notice on %s (turn %d, reading %d)%s", o.Level, c.ID, c.Turn, c.Reading, lateness(e.Notices, matched, o.Level, c))
			continue
		}
		matched[i] = true
	}
	for i, w := range e.Notices {
		if !matched[i] {
			fail("no %s notice on turn %d's call (block %d)", w.Level, w.Turn, w.Block)
		}
	}
	if t.Failed() {
		t.Logf("what the mock received:\n%s", s.Timeline())
	}
}

// match finds the unmatched want this notice fulfils, or -1.
func match(wants []Want, matched []bool, level string, c Call) int {
	for i, w := range wants {
		if !matched[i] && w.Level == level && w.Turn == c.Turn && (w.Block == anyBlock || w.Block == c.Block) {
			return i
		}
	}
	return -1
}

// lateness explains an unexpected notice that a still-missing want was
// due before: the sign of a hook that read before the transcript caught up.
func lateness(wants []Want, matched []bool, level string, c Call) string {
	due := -1
	for i, w := range wants {
		if !matched[i] && w.Level == level && w.Turn < c.Turn && w.Turn > due {
			due = w.Turn
		}
	}
	if due < 0 {
		return ""
	}
	return fmt.Sprintf(": LATE, due on turn %d's call — the hook read the transcript before the crossing response landed (design §3)", due)
}

// kilo rounds tokens to thousands the way notices print them.
func kilo(tokens int64) int64 { return (tokens + 500) / 1000 }

// onlyNotice returns the single notice of a level the run showed the model,
// failing the test when there is not exactly one; the place for one-phrase
// checks of what a notice says (ending, dollars, manual mode).
func onlyNotice(t *testing.T, s *Session, level string) string {
	t.Helper()
	var found []string
	for _, n := range s.Notices() {
		if o, ok := n.Opening(); ok && o.Level == level {
			found = append(found, n.Text)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d %s notices, want 1\n%s", len(found), level, s.Timeline())
	}
	return found[0]
}

// says asserts a notice carries each phrase.
func says(t *testing.T, text string, phrases ...string) {
	t.Helper()
	for _, p := range phrases {
		if !strings.Contains(text, p) {
			t.Errorf("notice lacks %q:\n%s", p, text)
		}
	}
}

// saysNot asserts a notice carries none of the phrases.
func saysNot(t *testing.T, text string, phrases ...string) {
	t.Helper()
	for _, p := range phrases {
		if strings.Contains(text, p) {
			t.Errorf("notice carries %q:\n%s", p, text)
		}
	}
}

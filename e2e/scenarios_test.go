package e2e

import (
	"strconv"
	"strings"
	"testing"
)

// The lines most scenarios put in the settings' env: low enough that the
// climbs stay under the 200k window's compaction point (168k for
// claude-opus-4-6 in 2.1.332), far enough apart to tell them apart.
const (
	warnLine  = 50_000
	pauseLine = 120_000
)

// fixedLines is the settings env that puts the lines at warnLine and
// pauseLine.
func fixedLines() map[string]string {
	return map[string]string{
		"MUTHUR_CONTEXT_BUDGET_WARN":  strconv.Itoa(warnLine),
		"MUTHUR_CONTEXT_BUDGET_PAUSE": strconv.Itoa(pauseLine),
	}
}

// with returns env plus the given key/value pairs.
func with(env map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range env {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

var fixed = Expect{Warn: warnLine, Pause: pauseLine}

// expect is fixed with the given notices.
func expect(ws ...Want) Expect {
	e := fixed
	e.Notices = ws
	return e
}

// climbScript climbs past both lines one call at a time, with calls under
// each line before it and after it: a notice one call early or late lands
// on a neighbour.
func climbScript() Script {
	return Script{Main: []Turn{
		turn(10_000, text("Starting."), bash("echo 1")),
		turn(30_000, bash("echo 2")),
		crossing(turn(60_000, bash("echo 3"))), // past warn
		turn(80_000, bash("echo 4")),
		crossing(turn(130_000, bash("echo 5"))), // past pause
		turn(140_000, bash("echo 6")),
		turn(145_000, text("Done.")),
	}}
}

// pauseJumpScript jumps from under the warn line straight past the pause
// line: only the pause fires.
func pauseJumpScript() Script {
	return Script{Main: []Turn{
		turn(10_000, bash("echo 1")),
		crossing(turn(130_000, bash("echo 2"))),
		turn(135_000, bash("echo 3")),
		turn(140_000, text("Done.")),
	}}
}

// TestClimb: a climb past warn then pause shows the warning once and the
// pause once, each on the crossing call, and the default ending runs /relay
// unasked.
func TestClimb(t *testing.T) {
	sc := climbScript()
	s := runClaude(t, sc, Options{Env: fixedLines()})
	check(t, s, sc, expect(warnAt(2, 0), pauseAt(4, 0)))
	checkLedger(t, s)
	warn := onlyNotice(t, s, "warning")
	says(t, warn, "The pause line is at 120k: about 60k tokens of room")
	// claude-opus-4-6 is priced, so pricing runs and the notice carries
	// the verdict's one figure whichever rule set the line (design §6.1,
	// §4.2).
	says(t, warn, "over the next 100k tokens", "Give the operator this figure")
	if n := strings.Count(warn, "$"); n != 1 {
		t.Errorf("the warning carries %d dollar figures, want one:\n%s", n, warn)
	}
	pause := onlyNotice(t, s, "pause")
	says(t, pause, "Stop now", "without asking and with no argument, run /relay")
	saysNot(t, pause, "do not run it unasked")
}

// TestJumpPastPause: a reading that jumps past both lines fires only the
// pause.
func TestJumpPastPause(t *testing.T) {
	sc := pauseJumpScript()
	s := runClaude(t, sc, Options{Env: fixedLines()})
	check(t, s, sc, expect(pauseAt(1, 0)))
	checkLedger(t, s)
}

// TestCompactionRearms: a compaction the mock drives (a response past the
// 200k window's compaction point, a summary for the summarisation request)
// brings the reading under the warn line, and the next climb warns and
// pauses again.
func TestCompactionRearms(t *testing.T) {
	sc := Script{
		Main: []Turn{
			turn(10_000, bash("echo 1")),
			crossing(turn(60_000, bash("echo 2"))),  // past warn
			crossing(turn(170_000, bash("echo 3"))), // past pause and the compaction point
			turn(20_000, bash("echo 4")),            // compacted: under warn, re-arms
			crossing(turn(70_000, bash("echo 5"))),  // past warn again
			crossing(turn(130_000, bash("echo 6"))), // past pause again
			turn(135_000, text("Done.")),
		},
		Summary: Turn{Usage: at(170_500), Blocks: []Block{text("<summary>The session ran the e2e script's first three commands.</summary>")}},
	}
	s := runClaude(t, sc, Options{Env: fixedLines()})
	e := expect(warnAt(1, 0), pauseAt(2, 0), warnAt(4, 0), pauseAt(5, 0))
	e.Compactions = 1
	check(t, s, sc, e)
	checkLedger(t, s)
}

// TestSubagentSilent: while the session is past the warn line, a foreground
// subagent's calls (reported to the hook with agent_id, and with the parent's
// transcript_path) get no notice, and the session's own warning still
// arrives — on the Agent call's result, the main call whose response
// crossed the line.
func TestSubagentSilent(t *testing.T) {
	sc := Script{
		Main: []Turn{
			turn(60_000, agent("Run echo sub twice.")), // past warn
			turn(65_000, bash("echo main")),
			turn(70_000, text("Done.")),
		},
		Sub: []Turn{
			turn(130_000, bash("echo sub 1")), // a subagent's own context past pause
			turn(135_000, bash("echo sub 2")),
			turn(140_000, text("Subagent done.")),
		},
	}
	s := runClaude(t, sc, Options{Env: fixedLines()})
	check(t, s, sc, expect(warnAt(0, 0)))
	checkLedger(t, s)
	if n := s.Count(KindSubagent); n != len(sc.Sub) {
		t.Errorf("%d subagent requests, want %d: the Agent call did not run a subagent in the foreground", n, len(sc.Sub))
	}
}

// TestParallelCallsOneNotice: several calls in one response that crosses a
// line run their hooks concurrently; exactly one of them carries the notice.
func TestParallelCallsOneNotice(t *testing.T) {
	sc := Script{Main: []Turn{
		turn(10_000, bash("echo 1")),
		crossing(turn(60_000, bash("echo 2a"), bash("echo 2b"), bash("echo 2c"))), // past warn
		turn(65_000, bash("echo 3")),
		crossing(turn(130_000, bash("echo 4a"), bash("echo 4b"), bash("echo 4c"), bash("echo 4d"))), // past pause
		turn(135_000, text("Done.")),
	}}
	s := runClaude(t, sc, Options{Env: fixedLines()})
	check(t, s, sc, expect(warnAt(1, anyBlock), pauseAt(3, anyBlock)))
	checkLedger(t, s)
}

// TestNoticeNotLate: the transcript lags the hook (design §3), so a hook
// that reads at once takes the previous response's reading and fires one
// call late. Four times the reading drops under the warn line, crosses it
// (holding its stream so the record lands after the hook starts), and stays
// over it for one more call; every warning must land on the crossing call.
// CONTEXT_BUDGET_E2E_HOOK_WRAP=e2e/testdata/late-hook.sh makes this fail.
func TestNoticeNotLate(t *testing.T) {
	var sc Script
	var wants []Want
	for i := range 4 {
		k := int64(i) * 1000
		n := strconv.Itoa(i)
		sc.Main = append(sc.Main,
			turn(10_000+k, bash("echo under "+n)),
			crossing(turn(60_000+k, bash("echo over "+n))),
			turn(65_000+k, bash("echo still over "+n)))
		wants = append(wants, warnAt(3*i+1, 0))
	}
	sc.Main = append(sc.Main, turn(20_000, text("Done.")))
	s := runClaude(t, sc, Options{Env: fixedLines()})
	check(t, s, sc, expect(wants...))
	checkLedger(t, s)
}

// TestDefaultCapsOn1MWindow: on a 1M-token model with nothing tuned but
// fixed lines, the lines are the caps, 300k and 400k: the window does not
// pull them in, and readings past 200k do not compact.
func TestDefaultCapsOn1MWindow(t *testing.T) {
	sc := Script{Main: []Turn{
		turn(10_000, bash("echo 1")),
		turn(250_000, bash("echo 2")),
		crossing(turn(310_000, bash("echo 3"))), // past the warn cap
		turn(350_000, bash("echo 4")),
		crossing(turn(410_000, bash("echo 5"))), // past the pause cap
		turn(420_000, bash("echo 6")),
		turn(425_000, text("Done.")),
	}}
	s := runClaude(t, sc, Options{Model: "claude-opus-4-6[1m]", Env: map[string]string{"MUTHUR_CONTEXT_BUDGET_LINES": "fixed"}})
	check(t, s, sc, Expect{Warn: 300_000, Pause: 400_000, Notices: []Want{warnAt(2, 0), pauseAt(4, 0)}})
	checkLedger(t, s)
	says(t, onlyNotice(t, s, "warning"), "the fixed cap")
}

// TestManualModeOffersRelay: with MUTHUR_MANUAL_CONTEXT_BUDGET_RELAY=1 in
// the settings' env the pause offers /relay instead of running it.
func TestManualModeOffersRelay(t *testing.T) {
	sc := pauseJumpScript()
	s := runClaude(t, sc, Options{Env: with(fixedLines(), "MUTHUR_MANUAL_CONTEXT_BUDGET_RELAY", "1")})
	check(t, s, sc, expect(pauseAt(1, 0)))
	checkLedger(t, s)
	pause := onlyNotice(t, s, "pause")
	says(t, pause, "offering /relay", "do not run it unasked")
	saysNot(t, pause, "without asking and with no argument")
}

// TestWindowLinesBeforeCompaction: with nothing tuned, on claude-opus-4-6's
// 200k window, the lines are pulled in under the window's compaction point
// (design §4.1): the pause reaches the model before Claude Code compacts
// on its own. The lines are read from the notices; each must land on the
// first call at or past its line.
func TestWindowLinesBeforeCompaction(t *testing.T) {
	sc := Script{Main: []Turn{turn(10_000, bash("echo 1"))}}
	for i, r := range []int64{100_000, 115_000, 130_000, 145_000, 158_000, 164_000} {
		sc.Main = append(sc.Main, crossing(turn(r, bash("echo "+strconv.Itoa(i+2)))))
	}
	sc.Main = append(sc.Main, turn(165_000, text("Done.")))
	s := runClaude(t, sc, Options{})
	warnK, pauseK := lineK(t, s, "warning"), lineK(t, s, "pause")
	if pauseK >= claudeCompactsAtK {
		t.Errorf("pause line %dk is not under the %dk at which Claude Code compacts a 200k window", pauseK, claudeCompactsAtK)
	}
	check(t, s, sc, Expect{Warn: warnK * 1000, Pause: pauseK * 1000,
		Notices: []Want{warnAt(firstTurnAtK(s, warnK), 0), pauseAt(firstTurnAtK(s, pauseK), 0)}})
	checkLedger(t, s)
	says(t, onlyNotice(t, s, "pause"), "window")
}

// claudeCompactsAtK is where Claude Code 2.1.332 compacts claude-opus-4-6
// on its own, in thousands: a response at 168k triggers it, 165k does not.
const claudeCompactsAtK = 168

// lineK is the line, in thousands, named by the run's only notice of a
// level.
func lineK(t *testing.T, s *Session, level string) int64 {
	t.Helper()
	for _, n := range s.Notices() {
		if o, ok := n.Opening(); ok && o.Level == level {
			return o.Line
		}
	}
	t.Fatalf("no %s notice\n%s", level, s.Timeline())
	return 0
}

// firstTurnAtK is the first main turn whose reading, in thousands, is at
// or past k; -1 when none is.
func firstTurnAtK(s *Session, k int64) int {
	for _, c := range s.Calls() {
		if c.Kind == KindMain && kilo(c.Reading) >= k {
			return c.Turn
		}
	}
	return -1
}

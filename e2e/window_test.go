package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// compactScript climbs to reading in one step and goes on; the CLI
// compacts before the next request when reading is past its threshold.
func compactScript(reading int64) Script {
	return Script{
		Main: []Turn{
			turn(10_000, bash("echo 1")),
			turn(reading, bash("echo 2")),
			turn(20_000, text("Done.")),
		},
		Summary: Turn{Usage: at(reading + 500), Blocks: []Block{text("<summary>The session ran two commands.</summary>")}},
	}
}

// compactsAfter reports whether the pinned CLI compacted after a response
// at reading, with the options o.
func compactsAfter(t *testing.T, reading int64, o Options) bool {
	t.Helper()
	sc := compactScript(reading)
	s := runClaude(t, sc, o)
	if s.Err != nil {
		t.Fatalf("claude: %v\n%s", s.Err, s.Stderr)
	}
	return s.Count(KindCompaction) > 0
}

// withSettings returns a Prepare that adds keys to the user's settings.
func withSettings(keys map[string]any) func(s *Session) {
	return func(s *Session) {
		name := filepath.Join(s.Home, ".claude", "settings.json")
		data, err := os.ReadFile(name)
		if err != nil {
			panic(err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			panic(err)
		}
		for k, v := range keys {
			m[k] = v
		}
		data, _ = json.MarshalIndent(m, "", "  ")
		if err := os.WriteFile(name, data, 0o644); err != nil {
			panic(err)
		}
	}
}

// TestAutoCompactWindowSetting: a session whose settings set
// autoCompactWindow (120,000) compacts where the pinned CLI computes it,
// 87,000 (the window less the summary's 20,000 and a 13,000 gap) —
// measured here against the mock: not after 86k, after 88k — and the
// hook reads the same setting: the pause comes the pause's room (28k)
// before it, at 59k, and says where the point came from.
func TestAutoCompactWindowSetting(t *testing.T) {
	o := Options{Prepare: withSettings(map[string]any{"autoCompactWindow": 120_000})}
	if compactsAfter(t, 86_000, o) {
		t.Error("the CLI compacted after 86k with autoCompactWindow 120000")
	}
	if !compactsAfter(t, 88_000, o) {
		t.Error("the CLI did not compact after 88k with autoCompactWindow 120000")
	}
	sc := Script{Main: []Turn{
		turn(10_000, bash("echo 1")),
		crossing(turn(35_000, bash("echo 2"))), // past the window's warn, 29k
		crossing(turn(62_000, bash("echo 3"))), // past the window's pause, 59k
		turn(64_000, text("Done.")),
	}}
	s := runClaude(t, sc, o)
	check(t, s, sc, Expect{Warn: 29_000, Pause: 59_000, Notices: []Want{warnAt(1, 0), pauseAt(2, 0)}})
	says(t, onlyNotice(t, s, "pause"), "compacts this 200k window at ~87k, from autoCompactWindow")
}

// TestPctOverride: CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=50 still moves the
// pinned CLI's threshold to half the effective window (180,000): 90,000,
// measured against the mock; the hook's pause comes at 62k.
func TestPctOverride(t *testing.T) {
	o := Options{Env: map[string]string{"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "50"}}
	if compactsAfter(t, 89_000, o) {
		t.Error("the CLI compacted after 89k with CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=50")
	}
	if !compactsAfter(t, 91_000, o) {
		t.Error("the CLI did not compact after 91k with CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=50")
	}
	sc := Script{Main: []Turn{
		turn(10_000, bash("echo 1")),
		crossing(turn(65_000, bash("echo 2"))), // past the window's pause, 62k
		turn(66_000, text("Done.")),
	}}
	s := runClaude(t, sc, o)
	check(t, s, sc, Expect{Warn: 32_000, Pause: 62_000, Notices: []Want{pauseAt(1, 0)}})
}

// TestSubagentWrapsUp: a subagent whose own context climbs past its line
// (139k: the 200k window compacts at 167k with 2.1.332, less the pause's
// 28k room) gets one wrap-up notice, on the crossing call, read from its
// own transcript; the session's own warning still arrives on the Agent
// call, and no session notice reaches the subagent.
func TestSubagentWrapsUp(t *testing.T) {
	sc := Script{
		Main: []Turn{
			turn(60_000, agent("Run echo sub three times.")), // past warn
			turn(65_000, bash("echo main")),
			turn(70_000, text("Done.")),
		},
		Sub: []Turn{
			turn(100_000, bash("echo sub 1")),
			crossing(turn(145_000, bash("echo sub 2"))), // past its line
			turn(150_000, bash("echo sub 3")),
			turn(152_000, text("Subagent done.")),
		},
	}
	s := runClaude(t, sc, Options{Env: fixedLines()})
	e := expect(warnAt(0, 0), wrapUpAt(1, 0))
	e.Sub = 139_000
	check(t, s, sc, e)
	says(t, onlyNotice(t, s, "wrap-up"), "what is done and what is left", "Do not touch the plan")
}

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/replay/replaytest"
)

// hookRun plays the real hook after each response of the transcript at
// path: the transcript is cut there, the hook reads it as Claude Code
// would leave it, and the notices it prints are collected as "warn@3".
func hookRun(t *testing.T, path string, env map[string]string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	live := filepath.Join(project, "transcript.jsonl")
	f, err := os.Create(live)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	getenv := func(k string) string { return env[k] }
	p := reading.Payload{HookEventName: "PostToolUse", SessionID: "equivalence", TranscriptPath: live, Cwd: project}
	var got []string
	done := 0
	for k, end := range replaytest.Cuts(data) {
		if _, err := f.Write(data[done:end]); err != nil {
			t.Fatal(err)
		}
		done = end
		text, err := hookNotice(p, getenv, testOnlyNoDeadline())
		if err != nil {
			t.Fatalf("response %d: %v", k, err)
		}
		if text == "" {
			continue
		}
		first, _, _ := strings.Cut(text, "\n")
		level := "pause"
		if strings.Contains(first, "warning line") {
			level = "warn"
		}
		got = append(got, fmt.Sprintf("%s@%d", level, k))
	}
	return got
}

func replayRun(t *testing.T, path string, env map[string]string) []string {
	t.Helper()
	s, err := config.FromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	sess := replay.File(replay.Source{Path: path}, replayOptions(s, nil, func(k string) string { return env[k] }))
	var out []string
	for _, n := range sess.Notices {
		out = append(out, fmt.Sprintf("%s@%d", n.Level, n.Response))
	}
	return out
}

// TestReplayAgreesWithTheHook runs the real hook after every response of
// each transcript and checks that replay finds the same notices at the
// same responses.
func TestReplayAgreesWithTheHook(t *testing.T) {
	low := map[string]string{config.EnvWarn: "100000", config.EnvPause: "150000"}
	dir := t.TempDir()
	var files []string
	gen := func(name string, s replaytest.Session) {
		var b bytes.Buffer
		if err := replaytest.Write(&b, s); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name+".jsonl")
		os.WriteFile(p, b.Bytes(), 0o644)
		files = append(files, p)
	}
	climb := replaytest.Climb(20_000, 12_000, 40) // past 400k
	gen("climb", replaytest.Session{ID: "c", Responses: climb, Seed: 1, Progress: 1})
	saw := replaytest.Climb(60_000, 9_000, 60)
	for i := range saw {
		saw[i].Reading = 60_000 + int64(i%20)*9_000 // three climbs to 231k, each cut short
		if i%20 == 0 && i > 0 {
			saw[i].Before = []string{"compact", "microcompact"}[i/20%2]
		}
		if i%7 == 3 {
			saw[i].Before = "synthetic"
		}
		if i%11 == 5 {
			saw[i].Before = "sidechain"
		}
		if i%13 == 6 {
			saw[i].Before = "damaged"
		}
	}
	gen("saw", replaytest.Session{ID: "s", Responses: saw, Seed: 2, Progress: 2})
	jumps := []replaytest.Response{{Reading: 50_000}, {Reading: 99_999}, {Reading: 100_000}, {Reading: 99_000},
		{Reading: 160_000}, {Reading: 120_000}, {Reading: 10_000, Before: "compact"}, {Reading: 500_000},
		{Reading: 20_000, Before: "compact", Bare: true, Blocks: 1}, {Reading: 120_000, Spliced: true, Bare: true, Blocks: 1},
		{Reading: 155_000, Spliced: true}}
	gen("jumps", replaytest.Session{ID: "j", Responses: jumps, Seed: 3})

	envs := map[string]map[string]string{"caps": {}, "low": low}
	fired := 0
	for _, p := range files {
		for name, env := range envs {
			t.Run(filepath.Base(p)+"/"+name, func(t *testing.T) {
				fired += check(t, p, env)
			})
		}
	}
	// climb: 2 + 2; saw: 3 climbs past 100k (3 warnings, 3 pauses);
	// jumps: at least 4 with the low lines and the pause at 500k.
	if fired < 14 {
		t.Errorf("the hook fired %d notices over the generated files; the comparison proves little", fired)
	}
	t.Run("real", func(t *testing.T) {
		shared, err := sharedTranscripts()
		if err != nil {
			t.Skipf("no shared transcripts: %v", err)
		}
		real, _ := filepath.Glob(filepath.Join(shared, "*.jsonl"))
		for _, p := range real {
			t.Run(filepath.Base(p), func(t *testing.T) {
				n := check(t, p, low)
				n += check(t, p, map[string]string{config.EnvWarn: "40000", config.EnvPause: "60000"})
				// Without pricing: the window cap alone. Priced lines agree
				// only until the session acts (the hook then prices the
				// reorientation from it, replay keeps the estimate), so the
				// generated sessions, which never act, test those.
				check(t, p, map[string]string{config.EnvLines: "fixed"})
				if strings.Contains(p, "-") && n < 4 {
					t.Errorf("only %d notices in a session that climbs to 165k twice", n)
				}
			})
		}
	})
}

func check(t *testing.T, path string, env map[string]string) int {
	t.Helper()
	hook := hookRun(t, path, env)
	rep := replayRun(t, path, env)
	if !slices.Equal(hook, rep) {
		t.Errorf("%s with %v:\nhook   %v\nreplay %v", filepath.Base(path), env, hook, rep)
	}
	if strings.Contains(path, "climb") && len(hook) == 0 {
		t.Errorf("%s: no notice at all; the test proves nothing", path)
	}
	return len(hook)
}

// sanity: the cut points are the replay's responses.
func TestCutsCountResponses(t *testing.T) {
	var b bytes.Buffer
	replaytest.Write(&b, replaytest.Session{ID: "x", Responses: replaytest.Climb(1000, 1000, 25), Seed: 9, Progress: 1})
	n := len(replaytest.Cuts(b.Bytes()))
	p := filepath.Join(t.TempDir(), "x.jsonl")
	os.WriteFile(p, b.Bytes(), 0o644)
	s := replay.File(replay.Source{Path: p}, replayOptions(config.Settings{}, nil, func(string) string { return "" }))
	if n != 25 || s.Responses != 25 {
		t.Errorf("cuts %d, replay %d, want 25", n, s.Responses)
	}
}

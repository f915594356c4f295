package state_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/cold"
	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/operator"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/internal/window"
)

// named is the name state.Files gives a kind of file, for session s1
// and agent a1.
func named(t *testing.T, kind string) string {
	t.Helper()
	for _, f := range state.Files() {
		if f.Name == kind {
			return strings.ReplaceAll(strings.ReplaceAll(kind, state.SessionID, "s1"), state.AgentID, "a1")
		}
	}
	t.Fatalf("%s is not in state.Files", kind)
	return ""
}

// TestWritersNames: the writers' own names for their files are the
// ones state.Files lists.
func TestWritersNames(t *testing.T) {
	dir := state.Dir("/project")
	const s = state.SessionID
	for _, tc := range []struct{ writer, got, kind string }{
		{"lines.FileName", lines.FileName(dir, "s1"), s + state.LineSuffix},
		{"window.FileName", window.FileName(dir, "s1"), s + state.WindowSuffix},
		{"cold.SpellFile", cold.SpellFile(dir, "s1"), s + state.ColdSuffix},
		{"operator.PauseFile", operator.PauseFile(dir, "s1"), s + state.PauseSuffix},
	} {
		if want := filepath.Join(dir, named(t, tc.kind)); tc.got != want {
			t.Errorf("%s: %s, want %s", tc.writer, tc.got, want)
		}
	}
}

// TestWritersWriteListedFiles runs the writers that need no child process
// and no transcript of note, and checks that the folder then holds the
// files state.Files names for them, and nothing else.
func TestWritersWriteListedFiles(t *testing.T) {
	root := t.TempDir()
	dir := state.Dir(root)
	if _, err := climb.AdvanceWith(dir, "s1", 500, climb.LineTokens{Warn: 300, Pause: 400}, climb.Options{}); err != nil {
		t.Fatal(err)
	}
	call := &lines.Call{Dir: dir, ID: "s1", Root: root, Transcript: filepath.Join(root, "s1.jsonl"),
		Getenv: func(string) string { return "" }, Reading: 500}
	if _, _, err := lines.DecideCached(call); err != nil {
		t.Fatal(err)
	}
	// The fuse keeps only its count of calls here; the rest of its state
	// lives in the user's config folder (fuse.Dir).
	getenv := func(k string) string { return map[string]string{"HOME": t.TempDir()}[k] }
	for _, agent := range []string{"", "a1"} {
		if err := fuse.RecordCall(getenv, root, "s1", agent, "Bash", json.RawMessage(`{"command":"ls"}`), tuning.Fuse{Loop: 3, LoopSet: true}); err != nil {
			t.Fatal(err)
		}
	}
	if err := cold.SaveSpell(cold.SpellFile(dir, "s1"), cold.Spell{ID: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := operator.RecordPause(dir, "s1", true, time.Now()); err != nil {
		t.Fatal(err)
	}
	const s = state.SessionID
	var want []string
	for _, kind := range []string{state.Gitignore, s, s + state.LockSuffix, s + state.LineSuffix, s + state.HistorySuffix,
		s + state.CallsSuffix,
		s + "-" + state.AgentID + state.CallsSuffix, s + state.ColdSuffix, s + state.PauseSuffix} {
		want = append(want, named(t, kind))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the folder holds %q,\nstate.Files names %q", got, want)
	}
}

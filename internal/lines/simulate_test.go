package lines

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/tuning"

	"github.com/muthur/context-budget/tools/sharedtest"
)

// simulate replays a transcript line by line into a growing file and runs
// the hook's decision after each own response, as Claude Code would after
// each tool call. It returns the levels fired before the first compaction
// and whether a compaction came.
func simulate(t *testing.T, src []byte, env map[string]string) (fired []climb.Level, compacted bool) {
	t.Helper()
	f := newFixture(t)
	for k, v := range env {
		f.env[k] = v
	}
	st, err := tuning.FromEnv(f.call.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	f.call.Settings = st
	out, err := os.Create(f.call.Transcript)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	var h forecast.History
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		out.Write(line)
		out.Write([]byte("\n"))
		boundaries := h.Boundaries
		if !h.AddLine(line) {
			if h.Boundaries > boundaries && bytes.Contains(line, []byte(`"compact_boundary"`)) {
				return fired, true
			}
			continue
		}
		f.call.Reading = h.Last.Context
		d, _, err := DecideCached(&f.call)
		if err != nil {
			t.Fatal(err)
		}
		level, err := climb.AdvanceWith(f.call.Dir, f.call.ID, f.call.Reading, d.Lines.Tokens(), climb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if level != climb.None {
			fired = append(fired, level)
			t.Logf("%v at %d: warn %d (%s), pause %d (%s)", level, f.call.Reading,
				d.Lines.Warn.Tokens, d.Lines.Warn.SetBy, d.Lines.Pause.Tokens, d.Lines.Pause.SetBy)
		}
	}
	return fired, false
}

// Every real session that compacted gets its pause before the compaction.
func TestRealTranscriptsPauseBeforeCompaction(t *testing.T) {
	dir := sharedTranscripts(t)
	for _, name := range []string{
		"4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
		"258c7280-ae70-4798-800f-63464d01a85d.jsonl",
	} {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, env := range []map[string]string{nil, {tuning.EnvLines: "fixed"}} {
			fired, compacted := simulate(t, src, env)
			if !compacted || len(fired) == 0 || fired[len(fired)-1] != climb.Pause {
				t.Errorf("%s %v: fired %v before the compaction (compacted %v)", name, env, fired, compacted)
			}
		}
	}
}

// A Haiku 4.5 session is cheap: its priced lines lie past a 200k window,
// and the window brings both notices before Claude Code compacts at 167k.
func TestHaikuClimbNoticedBeforeCompaction(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.jsonl")
	writeClimb(t, path, 170_000)
	src, _ := os.ReadFile(path)
	src = bytes.ReplaceAll(src, []byte("claude-opus-4-6"), []byte("claude-haiku-4-5-20251001"))
	src = append(src, `{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":170000}}`+"\n"...)
	fired, compacted := simulate(t, src, nil)
	if !compacted || len(fired) != 2 || fired[0] != climb.Warn || fired[1] != climb.Pause {
		t.Errorf("fired %v before the compaction (compacted %v)", fired, compacted)
	}
}

// sharedTranscripts finds ../shared/data/transcripts beside the repository.
func sharedTranscripts(t testing.TB) string {
	return sharedtest.DirOrSkip(t)
}

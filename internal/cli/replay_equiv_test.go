package cli

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/muthur/context-budget/internal/compactions"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/tools/gen"
	"github.com/muthur/context-budget/tools/sharedtest"
)

// noticeKeys writes notices as "pause@39 109000 152k window": response,
// reading, level, the line as the notice rounds it and what set it.
func noticeKeys(ns []replay.Notice) []string {
	out := []string{}
	for _, n := range ns {
		out = append(out, fmt.Sprintf("%s@%d %d %s %s", n.Level, n.Response, n.Reading, notice.K(n.Line), n.SetBy))
	}
	return out
}

// replayNotices replays path, named explicitly, with the environment env,
// as replay would with no settings files; home is the HOME the hook ran
// under, whose Claude Code projects folder holds the other sessions'
// transcripts replay learns the compaction point from as the hook did
// ("": no history).
func replayNotices(t testing.TB, path string, env map[string]string, home string) []replay.Notice {
	t.Helper()
	return replaySession(t, path, env, home).Notices
}

// replaySession is replayNotices' whole session, with its series.
func replaySession(t testing.TB, path string, env map[string]string, home string) replay.Session {
	t.Helper()
	getenv := func(k string) string { return env[k] }
	s, err := tuning.FromEnv(getenv)
	if err != nil {
		t.Fatal(err)
	}
	opt := replayOptions(s, nil, getenv)
	h := replayHistory{Getenv: getenv}
	if home != "" {
		projects := filepath.Join(home, ".claude", "projects")
		if _, err := os.Stat(projects); err != nil {
			// A home gone since the drive would replay without the
			// history the hook learned from.
			t.Fatalf("%s: the hook's home %s is gone: %v", filepath.Base(path), home, err)
		}
		h.Transcripts = compactions.Transcripts(projects)
		h.Indexed = homeIndex(projects, h.Transcripts)
	}
	opt = withSources(opt, []replay.Source{{Path: path}}, h)
	opt.Series = true
	return replay.File(replay.Source{Path: path}, opt)
}

// sameVerdicts requires each pause's verdict in the hook's words to be
// replay's: the choice the agent was told, the alternative and the
// figure to the cent. It returns the priced pauses it compared.
func sameVerdicts(t *testing.T, path string, d driven, s replay.Session) []noticeVerdict {
	t.Helper()
	pauses := map[int]replay.Pause{}
	for _, p := range s.Pauses {
		pauses[p.Response] = p
	}
	var out []noticeVerdict
	for i, n := range d.Notices {
		if n.Level != "pause" {
			continue
		}
		v, p := verdictOf(d.Texts[i]), pauses[n.Response]
		if !v.Priced {
			if p.NetUSD != nil || !v.Relays {
				t.Errorf("%s pause@%d: unpriced in the hook's words (relays %v), replay's %+v", filepath.Base(path), n.Response, v.Relays, p)
			}
			continue
		}
		if p.NetUSD == nil || v.Choice != p.Choice || v.Against != p.Against || math.Abs(v.NetUSD-*p.NetUSD) > 0.005+1e-9 {
			t.Errorf("%s pause@%d: the hook says %+v, replay %s against %s at %s", filepath.Base(path), n.Response, v, p.Choice, p.Against, netString(p.NetUSD))
		}
		out = append(out, v)
	}
	return out
}

// sameNotices requires replay's notices to be the hook's.
func sameNotices(t *testing.T, path string, hook, rep []replay.Notice) {
	t.Helper()
	h, r := noticeKeys(hook), noticeKeys(rep)
	if !slices.Equal(h, r) {
		t.Errorf("%s:\nhook   %v\nreplay %v", filepath.Base(path), h, r)
	}
}

// TestReplayDecidesAsTheHook drives the hook over every prefix, ending at
// a hook call, of every corpus session (its code in process; with
// -drive-program the program) and of every shared transcript (the
// program), and requires replay's notices at the same
// responses, with the same readings, levels, lines and setters.
func TestReplayDecidesAsTheHook(t *testing.T) {
	t.Run("corpus", func(t *testing.T) {
		// The hook ran with a home whose projects folder held the other
		// folds' sessions; replay names the session's own path and reads
		// the same folder.
		paths, runs := drivenCorpus(t)
		fired, priced, learned := 0, 0, 0
		for i, p := range paths {
			fired += len(runs[i].Notices)
			for _, text := range runs[i].Texts {
				if strings.Contains(text, "of your sessions") {
					learned++
				}
			}
			s := replaySession(t, p, nil, corpusDrive.homes[corpusFold(p)])
			sameNotices(t, p, runs[i].Notices, s.Notices)
			priced += len(sameVerdicts(t, p, runs[i], s))
		}
		if learned == 0 {
			t.Error("no notice names a point learned from the history; the comparison proves nothing of it")
		}
		if fired < 100 || priced < 50 {
			t.Errorf("the hook fired %d notices over the corpus, %d priced pauses; the comparison proves little", fired, priced)
		}
	})
	t.Run("transcripts", func(t *testing.T) {
		dir := sharedtest.DirOrSkip(t)
		paths, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		low := map[string]string{tuning.EnvWarn: "55000", tuning.EnvPause: "85000"}
		for _, env := range []map[string]string{nil, low, {tuning.EnvLines: "fixed"}} {
			runs := driveAll(t, paths, env)
			fired := 0
			for i, p := range paths {
				fired += len(runs[i].Notices)
				sameNotices(t, p, runs[i].Notices, replayNotices(t, p, env, ""))
			}
			if env != nil && fired < 4 {
				t.Errorf("%v: only %d notices over the shared transcripts", env, fired)
			}
		}
	})
	t.Run("generated", func(t *testing.T) {
		files := generatedSessions(t)
		low := map[string]string{tuning.EnvWarn: "100000", tuning.EnvPause: "150000"}
		fired := 0
		for _, env := range []map[string]string{nil, low} {
			runs := driveAll(t, files, env)
			for i, p := range files {
				fired += len(runs[i].Notices)
				sameNotices(t, p, runs[i].Notices, replayNotices(t, p, env, ""))
			}
		}
		if fired < 14 {
			t.Errorf("the hook fired %d notices over the generated files; the comparison proves little", fired)
		}
	})
}

// TestReplayReadsTheSettingsEnv: lines set in the user's settings.json
// env reach the hook as variables (Claude Code passes them); replay reads
// them from the file and decides the same.
func TestReplayReadsTheSettingsEnv(t *testing.T) {
	dir := sharedtest.DirOrSkip(t)
	paths, _ := filepath.Glob(filepath.Join(dir, "4d5611e5*.jsonl"))
	if len(paths) == 0 {
		t.Skip("no 4d5611e5 transcript")
	}
	env := map[string]string{tuning.EnvWarn: "55000", tuning.EnvPause: "85000"}
	runs := driveAll(t, paths, env)
	if len(runs[0].Notices) < 2 {
		t.Fatalf("the hook fired %v with lines at 55k and 85k", runs[0].Notices)
	}
	cfg := t.TempDir()
	os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"env":{"MUTHUR_CONTEXT_BUDGET_WARN":"55000","MUTHUR_CONTEXT_BUDGET_PAUSE":"85000"}}`), 0o644)
	got := replay.File(replay.Source{Path: paths[0]}, replayOptionsWithSettings(nil, func(string) string { return "" }, cfg)).Notices
	sameNotices(t, paths[0], runs[0].Notices, got)
}

// generatedSessions writes sessions that climb past every line, saw up
// and down through compactions and damage, and jump.
func generatedSessions(t *testing.T) []string {
	dir := t.TempDir()
	var files []string
	add := func(name string, s gen.Script) {
		var b bytes.Buffer
		if err := gen.WriteScript(&b, s); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name+".jsonl")
		os.WriteFile(p, b.Bytes(), 0o644)
		files = append(files, p)
	}
	add("climb", gen.Script{ID: "c", Responses: gen.Climb(20_000, 12_000, 40), Seed: 1, Progress: 1})
	saw := gen.Climb(60_000, 9_000, 60)
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
	add("saw", gen.Script{ID: "s", Responses: saw, Seed: 2, Progress: 2})
	jumps := []gen.Response{{Reading: 50_000}, {Reading: 99_999}, {Reading: 100_000}, {Reading: 99_000},
		{Reading: 160_000}, {Reading: 120_000}, {Reading: 10_000, Before: "compact"}, {Reading: 500_000},
		{Reading: 20_000, Before: "compact", Bare: true, Blocks: 1}, {Reading: 120_000, Spliced: true, Bare: true, Blocks: 1},
		{Reading: 155_000, Spliced: true, Blocks: 3}} // its later records end the spliced line before the hook runs
	add("jumps", gen.Script{ID: "j", Responses: jumps, Seed: 3})
	return files
}

// sanity: the drive's responses are the replay's.
func TestCutsCountResponses(t *testing.T) {
	var b bytes.Buffer
	gen.WriteScript(&b, gen.Script{ID: "x", Responses: gen.Climb(1000, 1000, 25), Seed: 9, Progress: 1})
	cuts, _ := driveCuts(b.Bytes())
	p := filepath.Join(t.TempDir(), "x.jsonl")
	os.WriteFile(p, b.Bytes(), 0o644)
	s := replay.File(replay.Source{Path: p}, replayOptions(tuning.Settings{}, nil, func(string) string { return "" }))
	if len(cuts) != 25 || s.Responses != 25 || len(gen.Cuts(b.Bytes(), reading.MaxLine)) != 25 {
		t.Errorf("cuts %d, replay %d, want 25", len(cuts), s.Responses)
	}
	for _, c := range cuts {
		if c.toolUseID == "" || !strings.HasPrefix(c.toolUseID, "toolu_") {
			t.Errorf("a generated response without its tool call: %+v", c)
		}
	}
}

// homeIndexes are the fold homes' transcripts indexed whole, once per
// projects folder: replaying each of a fold's sessions would read the
// other folds' transcripts again for each.
var homeIndexes sync.Map // projects folder → *compactions.Index

// homeIndex is the index of a projects folder's transcripts, made once.
func homeIndex(projects string, transcripts []string) *compactions.Index {
	if ix, ok := homeIndexes.Load(projects); ok {
		return ix.(*compactions.Index)
	}
	ix := &compactions.Index{Files: map[string]*compactions.File{}}
	ix.UpdateAll(transcripts, 0)
	got, _ := homeIndexes.LoadOrStore(projects, ix)
	return got.(*compactions.Index)
}

// netString prints a pause's net, or "no figure".
func netString(p *float64) string {
	if p == nil {
		return "no figure"
	}
	return fmt.Sprintf("%.4f", *p)
}

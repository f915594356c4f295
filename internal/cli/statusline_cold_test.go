package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/cold"
	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/tools/gen"
	"github.com/muthur/context-budget/tools/sharedtest"
)

// coldMarkWhole is coldMark as it was before the cache's header held the
// cold line: the whole entry decoded on every cold bar. The test below
// holds the header's mark to it.
func coldMarkWhole(dir, id, path string, d *lines.Decision, r reading.Reading, getenv func(string) string) string {
	now := statusNow()
	last, ok := cold.LastResponse(r.Time)
	if !ok || now.Sub(last) < cold.TTL5m {
		return ""
	}
	if cs, err := config.ColdFromEnv(getenv); err != nil || cs.Mode == config.ColdOff || cold.CompactedSince(path) {
		return ""
	}
	e, ok := lines.Load(lines.FileName(dir, id))
	if ok {
		d = &e.Decision
	}
	f, isCold, priced := cold.At(d, &e.History, r, now)
	if !isCold {
		return ""
	}
	return " · " + cold.Status(f, priced)
}

// coldSessions writes generated sessions for the cold mark: 5-minute and
// 1-hour caches (throughout, from one response on, on the last response
// alone), a model priced in a band above 100k, and a climb past 200k (a
// 1M window); generatedSessions adds compactions, damage and jumps.
func coldSessions(t *testing.T) []string {
	dir := t.TempDir()
	files := generatedSessions(t)
	add := func(name string, s gen.Script) {
		var b bytes.Buffer
		if err := gen.WriteScript(&b, s); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name+".jsonl")
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	with1h := func(rs []gen.Response, from, to int) []gen.Response {
		for i := from; i < to; i++ {
			rs[i].Write1h = true
		}
		return rs
	}
	add("opus-1h", gen.Script{ID: "h", Responses: with1h(gen.Climb(20_000, 9_000, 30), 0, 30), Seed: 4})
	add("opus-1h-once", gen.Script{ID: "o", Responses: with1h(gen.Climb(20_000, 9_000, 30), 5, 6), Seed: 5})
	add("opus-1h-last", gen.Script{ID: "l", Responses: with1h(gen.Climb(20_000, 9_000, 30), 29, 30), Seed: 6})
	add("haiku-band", gen.Script{ID: "b", Model: "claude-haiku-5-5", Responses: gen.Climb(40_000, 4_500, 26), Seed: 7})
	add("haiku-band-1h", gen.Script{ID: "k", Model: "claude-haiku-5-5", Responses: with1h(gen.Climb(40_000, 4_500, 26), 10, 26), Seed: 8})
	add("opus-1m", gen.Script{ID: "m", Responses: gen.Climb(150_000, 25_000, 20), Seed: 9})
	return files
}

// coldIdles are the idle times the marks are compared at: either side of
// both TTLs, and days.
var coldIdles = []time.Duration{4*time.Minute + 59*time.Second, 5 * time.Minute, 14 * time.Minute, 59*time.Minute + 59*time.Second,
	time.Hour, 65 * time.Minute, 50 * time.Hour, 72 * time.Hour}

// coldCounts counts what the comparison covered, so that a test that
// compared only empty marks fails.
type coldCounts struct {
	header, priced, unpriced, warm1h, band int
}

// TestColdMarkFromHeader: the status line's cold mark, read from the line
// cache's header, is the mark the whole entry gave, over generated
// sessions and the real transcripts beside the repository, at every
// response (before the hook's call for it, when the bar's reading is past
// the cache's, and after), at idle times either side of both TTLs.
func TestColdMarkFromHeader(t *testing.T) {
	defer func(f func() time.Time) { statusNow = f }(statusNow)
	files := coldSessions(t)
	if dir, err := sharedTranscripts(); err == nil {
		real, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		files = append(files, real...)
	} else {
		t.Logf("only generated sessions: %v", err)
	}
	var n coldCounts
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) { checkColdMarks(t, path, 1, &n) })
	}
	// The corpus's 186 real sessions, played response by response to the
	// hook, the marks compared at every fifth response and the last: not
	// with -short.
	if dir, err := sharedtest.CorpusDir(); err == nil && !testing.Short() {
		corpus, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		for _, path := range corpus {
			t.Run("corpus/"+filepath.Base(path), func(t *testing.T) { checkColdMarks(t, path, 5, &n) })
		}
	}
	t.Logf("%+v", n)
	if n.header == 0 || n.priced < 100 || n.unpriced == 0 || n.warm1h == 0 || n.band == 0 {
		t.Errorf("the comparison covered too little: %+v", n)
	}
}

// checkColdMarks plays the transcript at path to the hook, in process,
// response by response, and compares the marks at every stride-th
// response and the last.
func checkColdMarks(t *testing.T, path string, stride int, n *coldCounts) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	project, home := filepath.Join(tmp, "project"), filepath.Join(tmp, "home")
	for _, d := range []string{project, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	session := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	live := filepath.Join(project, session+".jsonl")
	env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "CLAUDE_PROJECT_DIR": project}
	getenv := func(k string) string { return env[k] }
	dir := state.Dir(project)
	name := lines.FileName(dir, session)
	f, err := os.Create(live)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	check := func(k int, when string) {
		r, err := reading.Read(live, reading.Options{})
		if err != nil {
			return
		}
		last, ok := cold.LastResponse(r.Time)
		if !ok {
			return
		}
		_, _, fromHeader := lines.Cold(name)
		if e, ok := lines.Load(name); ok && !e.Partial && !fromHeader {
			t.Fatalf("response %d, %s: the header of a whole cache this build wrote has no cold line", k, when)
		}
		if fromHeader {
			n.header++
		}
		for _, idle := range coldIdles {
			statusNow = func() time.Time { return last.Add(idle) }
			// What statusLine passes is the status line's Decision; the
			// whole read used it only without an entry that loads.
			var sd lines.Decision
			got := coldMark(dir, session, live, &sd, r, getenv)
			want := coldMarkWhole(dir, session, live, &sd, r, getenv)
			if got != want {
				t.Fatalf("response %d, %s, idle %v: the mark %q from the header, %q whole", k, when, idle, got, want)
			}
			switch {
			case strings.Contains(got, " · re-write "):
				n.priced++
				if strings.HasPrefix(session, "haiku-band") && r.Tokens > 100_000 {
					n.band++
				}
			case got != "":
				n.unpriced++
			case idle >= 5*time.Minute && idle < time.Hour && strings.Contains(session, "1h") && !cold.CompactedSince(live):
				n.warm1h++
			}
		}
	}
	cuts, _ := driveCuts(data)
	done := 0
	for k, c := range cuts {
		if _, err := f.Write(data[done:c.end]); err != nil {
			t.Fatal(err)
		}
		done = c.end
		compare := k%stride == 0 || k == len(cuts)-1
		if compare {
			check(k, "before the hook")
		}
		if c.toolUseID == "" {
			continue
		}
		p := reading.Payload{HookEventName: "PostToolUse", SessionID: session, TranscriptPath: live, Cwd: project, ToolUseID: c.toolUseID}
		if _, err := hookNotice(p, getenv, testOnlyNoDeadline()); err != nil {
			t.Fatalf("response %d: %v", k, err)
		}
		if compare {
			check(k, "after the hook")
		}
	}
}

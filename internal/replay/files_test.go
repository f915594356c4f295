package replay_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/tools/gen"

	"github.com/muthur/context-budget/tools/sharedtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	files := []string{
		"proj-a/11111111-0000-4000-8000-000000000001.jsonl",
		"proj-a/11111111-0000-4000-8000-000000000001/subagents/agent-a1.jsonl",
		"proj-a/11111111-0000-4000-8000-000000000001/subagents/workflows/agent-w.jsonl",
		"proj-a/11111111-0000-4000-8000-000000000001/tool-results/x.txt",
		"proj-a/agent-old.jsonl", // 2.0's layout: a subagent beside the sessions
		"proj-b/deep/er/22222222-0000-4000-8000-000000000002.jsonl",
		"proj-b/notes.txt",
	}
	for _, f := range files {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("{}\n"), 0o644)
	}
	os.MkdirAll(filepath.Join(dir, "empty", "folders", "only"), 0o755)
	explicit := filepath.Join(dir, "proj-a", "agent-old.jsonl")
	got, err := replay.Discover([]string{dir, filepath.Join(dir, "proj-a"), explicit})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, s := range got {
		rel, _ := filepath.Rel(dir, s.Path)
		paths = append(paths, fmt.Sprintf("%s %d", rel, len(s.Subagents)))
	}
	want := []string{
		"proj-a/11111111-0000-4000-8000-000000000001.jsonl 2",
		"proj-a/agent-old.jsonl 0", // named on the command line
		"proj-b/deep/er/22222222-0000-4000-8000-000000000002.jsonl 0",
	}
	if !slices.Equal(paths, want) {
		t.Errorf("discovered:\n got %q\nwant %q", paths, want)
	}
	if got[0].Size != 3 {
		t.Errorf("size = %d, want 3", got[0].Size)
	}

	if _, err := replay.Discover([]string{filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing path is not an error")
	}
	empty, err := replay.Discover([]string{filepath.Join(dir, "empty")})
	if err != nil || len(empty) != 0 {
		t.Errorf("empty folder: %v, %v", empty, err)
	}
	rep := replay.Run(empty, fixed(caps))
	if rep.Totals.Sessions != 0 || rep.Sessions == nil && len(rep.Sessions) != 0 {
		t.Errorf("empty run = %+v", rep)
	}
}

// TestCorrupt replays files no transcript should look like: nothing
// panics, nothing is invented, and what is readable still counts.
func TestCorrupt(t *testing.T) {
	good := usage("a", "claude-opus-4-6", 310_000, 0, false, 1)
	huge := `{"type":"user","message":{"content":"` + strings.Repeat("x", 5<<20) + `"}}`
	hugeAssistant := `{"type":"assistant","message":{"id":"big","model":"m","usage":{"input_tokens":999999},"content":"` + strings.Repeat("y", 5<<20) + `"}}`
	tests := []struct {
		name      string
		content   string
		responses int
		notices   int
	}{
		{"empty", "", 0, 0},
		{"no newline at the end", good, 1, 1},
		{"half-written last line", good + "\n" + good[:40], 1, 1},
		{"binary", "\x00\x01\x02\xff\xfe" + strings.Repeat("\x00", 1000), 0, 0},
		{"two records spliced", good + usage("b", "claude-opus-4-6", 320_000, 0, false, 1) + "\n", 2, 1},
		{"NUL run before a record", strings.Repeat("\x00", 300) + good + "\n", 1, 1},
		{"wrong types", `{"type":"assistant","message":{"id":5,"usage":"many"}}` + "\n" + `{"type":["x"]}` + "\n" + good + "\n", 1, 1},
		{"a 5 MB tool result", huge + "\n" + good + "\n", 1, 1},
		{"an assistant line past the hook's limit is skipped", hugeAssistant + "\n" + good + "\n", 1, 1},
		{"CRLF", good + "\r\n" + usage("b", "claude-opus-4-6", 420_000, 0, false, 1) + "\r\n", 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "c.jsonl")
			os.WriteFile(p, []byte(tt.content), 0o644)
			s := replay.File(replay.Source{Path: p}, fixed(caps))
			if s.Responses != tt.responses || len(s.Notices) != tt.notices || s.Error != "" {
				t.Errorf("responses %d notices %d error %q, want %d and %d", s.Responses, len(s.Notices), s.Error, tt.responses, tt.notices)
			}
		})
	}
	s := replay.File(replay.Source{Path: filepath.Join(t.TempDir(), "gone.jsonl")}, fixed(caps))
	if s.Error == "" {
		t.Error("an unreadable file has no error")
	}
	if rep := replay.Run([]replay.Source{{Path: "/nonexistent/x.jsonl"}}, fixed(caps)); rep.Totals.Errors != 1 {
		t.Errorf("errors = %d, want 1", rep.Totals.Errors)
	}
}

// TestManySmallFiles replays a folder of 10,000 small sessions: all of
// them, in path order, with the progress callback's final count right.
func TestManySmallFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 files")
	}
	dir := t.TempDir()
	const n = 10_000
	for i := range n {
		sub := filepath.Join(dir, fmt.Sprintf("p%02d", i%50))
		os.MkdirAll(sub, 0o755)
		rec := usage(fmt.Sprintf("m%d", i), "claude-opus-4-6", int64(250_000+i*20), 0, false, 1)
		os.WriteFile(filepath.Join(sub, fmt.Sprintf("s%05d.jsonl", i)), []byte(rec+"\n"), 0o644)
	}
	sources, err := replay.Discover([]string{dir})
	if err != nil || len(sources) != n {
		t.Fatalf("discovered %d, %v", len(sources), err)
	}
	var last replay.Progress
	opt := fixed(caps)
	opt.Workers = 4
	opt.Progress = func(p replay.Progress) { last = p }
	rep := replay.Run(sources, opt)
	if rep.Totals.Sessions != n || rep.Totals.Responses != n {
		t.Errorf("totals = %+v", rep.Totals)
	}
	if !last.Done || last.Files != n || last.Bytes != rep.Totals.Bytes {
		t.Errorf("last progress = %+v, bytes %d", last, rep.Totals.Bytes)
	}
	// 250,000 + 20·i crosses 300k from i = 2,500 on, 400k from 7,500.
	if rep.Totals.Warnings != 5000 || rep.Totals.Pauses != 2500 {
		t.Errorf("warnings = %d, pauses %d; want 5000 and 2500", rep.Totals.Warnings, rep.Totals.Pauses)
	}
	if !slices.IsSortedFunc(rep.Sessions, func(a, b replay.Session) int { return strings.Compare(a.Path, b.Path) }) {
		t.Error("sessions are not in path order")
	}
}

// sharedTranscripts finds ../shared/data/transcripts beside the repository.
func sharedTranscripts(t *testing.T) string {
	return sharedtest.DirOrSkip(t)
}

// generatedSet writes sessions with known crossings: the golden file pins
// what replay makes of them.
func generatedSet(t testing.TB, dir string) {
	climb := gen.Climb(20_000, 9_000, 50)
	climb[30].Before = "compact"
	for i := 30; i < 50; i++ {
		climb[i].Reading = 30_000 + int64(i-30)*25_000
	}
	sessions := []gen.Script{
		{ID: "aaaaaaaa-0000-4000-8000-000000000001", Responses: gen.Climb(50_000, 10_000, 40), Seed: 1, Progress: 1},
		{ID: "aaaaaaaa-0000-4000-8000-000000000002", Responses: climb, Seed: 2},
		{ID: "aaaaaaaa-0000-4000-8000-000000000003", Responses: gen.Climb(5_000, 500, 30), Seed: 3},
	}
	for _, s := range sessions {
		write(t, dir, s)
	}
}

func TestGolden(t *testing.T) {
	twoLines := lines.Lines{
		Warn:  lines.Line{Tokens: 100_000, SetBy: lines.Env},
		Pause: lines.Line{Tokens: 150_000, SetBy: lines.Env},
	}
	t.Run("generated", func(t *testing.T) {
		dir := t.TempDir()
		generatedSet(t, dir)
		golden(t, dir, fixed(caps), "generated.golden.json")
		golden(t, dir, fixed(twoLines), "generated-env.golden.json")
	})
	t.Run("real", func(t *testing.T) {
		dir := sharedTranscripts(t)
		golden(t, dir, fixed(caps), "real.golden.json")
		golden(t, dir, fixed(twoLines), "real-env.golden.json")
	})
}

func golden(t *testing.T, dir string, opt replay.Options, name string) {
	t.Helper()
	sources, err := replay.Discover([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	opt.Prices = opus
	rep := replay.Run(sources, opt)
	for i := range rep.Sessions {
		rel, _ := filepath.Rel(dir, rep.Sessions[i].Path)
		rep.Sessions[i].Path = filepath.ToSlash(rel)
	}
	got, _ := json.MarshalIndent(rep, "", "  ")
	got = append(got, '\n')
	file := filepath.Join("testdata", name)
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the replay; run go test -update and review the diff\n%s", file, got)
	}
}

// TestAgainstGen replays transcripts grown by gen.Write, the benchmarks'
// (no script: their own mix of records and huge results), and finds the
// responses and compactions gen says it wrote.
func TestAgainstGen(t *testing.T) {
	dir := t.TempDir()
	for i, size := range []int64{300 << 10, 20 << 20} {
		p := filepath.Join(dir, fmt.Sprintf("g%d.jsonl", i))
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		// The small one carries a result past the hook's line limit.
		opt := gen.Options{Size: size, Seed: uint64(i + 1), HugeEvery: 100 << 10, HugeResult: 5 << 20}
		if size > 1<<20 {
			opt = gen.Options{Size: size, Seed: uint64(i + 1)}
		}
		res, err := gen.Write(f, opt)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		s := replay.File(replay.Source{Path: p}, fixed(caps))
		if s.Responses != res.Responses || s.Compactions != res.Compactions || s.Readings != nil {
			t.Errorf("%d bytes: %d responses, %d compactions; gen wrote %d and %d",
				size, s.Responses, s.Compactions, res.Responses, res.Compactions)
		}
		if res.Compactions == 0 && size > 1<<20 {
			t.Errorf("gen wrote no compaction in %d bytes; the test proves less", size)
		}
	}
}

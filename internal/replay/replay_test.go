package replay_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/tools/gen"
)

// caps are the fixed lines: 300k and 400k.
var caps = lines.Lines{
	Warn:  lines.Line{Tokens: 300_000, SetBy: lines.Cap},
	Pause: lines.Line{Tokens: 400_000, SetBy: lines.Cap},
}

func fixed(ls lines.Lines) replay.Options {
	return replay.Options{NewModel: func(string) replay.Model { return replay.FixedModel(ls) }}
}

// write writes a generated session to dir/<id>.jsonl and returns its path.
func write(t testing.TB, dir string, s gen.Script) string {
	t.Helper()
	if s.ID == "" {
		s.ID = "00000000-aaaa-4bbb-8ccc-000000000001"
	}
	var b bytes.Buffer
	if err := gen.WriteScript(&b, s); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, s.ID+".jsonl")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func replayOne(t *testing.T, s gen.Script, opt replay.Options) replay.Session {
	t.Helper()
	p := write(t, t.TempDir(), s)
	fi, _ := os.Stat(p)
	return replay.File(replay.Source{Path: p, Size: fi.Size()}, opt)
}

// notices renders notices as "warn@3" for compact comparison.
func notices(s replay.Session) []string {
	var out []string
	for _, n := range s.Notices {
		out = append(out, fmt.Sprintf("%s@%d", n.Level, n.Response))
	}
	return out
}

func TestKnownCrossings(t *testing.T) {
	climb := gen.Climb(10_000, 10_000, 45) // 10k … 450k
	withCompaction := append(gen.Climb(250_000, 20_000, 5), gen.Climb(40_000, 30_000, 11)...)
	withCompaction[5].Before = "compact" // 330k (warn at 1) → 40k … 340k
	dip := []gen.Response{{Reading: 290_000}, {Reading: 305_000}, {Reading: 301_000}, {Reading: 303_000}, {Reading: 299_000}, {Reading: 310_000}}
	noise := gen.Climb(280_000, 10_000, 4) // 280k 290k 300k 310k
	noise[2].Before = "synthetic"          // zero usage: not a reading
	noise[3].Before = "sidechain"
	noise = append(noise, gen.Response{Reading: 320_000, Before: "damaged"})
	micro := []gen.Response{{Reading: 310_000}, {Reading: 120_000, Before: "microcompact"}, {Reading: 330_000}}

	tests := []struct {
		name      string
		responses []gen.Response
		want      []string
		peak      int64
	}{
		{"climb through both lines", climb, []string{"warn@29", "pause@39"}, 450_000},
		{"straight past the pause", []gen.Response{{Reading: 100_000}, {Reading: 420_000}, {Reading: 430_000}}, []string{"pause@1"}, 430_000},
		{"compaction re-arms", withCompaction, []string{"warn@3", "warn@14"}, 340_000},
		{"only a dip under the warn line re-arms", dip, []string{"warn@1", "warn@5"}, 310_000},
		{"synthetic, sidechain, progress and damage are not responses", noise, []string{"warn@2"}, 320_000},
		{"a microcompaction re-arms", micro, []string{"warn@0", "warn@2"}, 330_000},
		{"nothing crossed", gen.Climb(1_000, 1_000, 20), nil, 20_000},
		{"no responses", nil, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := replayOne(t, gen.Script{Responses: tt.responses, Seed: 7, Progress: 2}, fixed(caps))
			if got := notices(s); !slices.Equal(got, tt.want) {
				t.Errorf("notices = %v, want %v", got, tt.want)
			}
			if s.Peak != tt.peak {
				t.Errorf("peak = %d, want %d", s.Peak, tt.peak)
			}
			if s.Error != "" {
				t.Errorf("error = %q", s.Error)
			}
		})
	}
}

func TestCounts(t *testing.T) {
	rs := gen.Climb(100_000, 40_000, 10)
	rs[4].Before = "compact"
	rs[6].Before = "microcompact"
	rs[8].Before = "synthetic"
	s := replayOne(t, gen.Script{ID: "11111111-2222-4333-8444-555555555555", Responses: rs, Seed: 1, Progress: 3}, fixed(caps))
	if s.Responses != 10 {
		t.Errorf("responses = %d, want 10", s.Responses)
	}
	if s.Compactions != 1 {
		t.Errorf("compactions = %d, want 1", s.Compactions)
	}
	if len(s.Boundaries) != 2 || s.Boundaries[0].AfterResponse != 3 || s.Boundaries[1].Kind != "microcompact" ||
		s.Boundaries[1].AfterResponse != 5 || s.Boundaries[0].PreTokens < 167000 || s.Boundaries[0].Trigger != "auto" {
		t.Errorf("boundaries = %+v", s.Boundaries)
	}
	if s.SessionID != "11111111-2222-4333-8444-555555555555" {
		t.Errorf("session id = %q", s.SessionID)
	}
	if s.Model != "claude-opus-4-6" {
		t.Errorf("model = %q", s.Model)
	}
}

// recorder is a Model that logs what the walk tells it and asks of it.
type recorder struct {
	log []string
}

func (r *recorder) Observe(rec *transcript.Record, _ []byte) {
	switch {
	case rec.IsResponse():
		r.log = append(r.log, "response "+rec.Message.ID)
	case rec.IsBoundary():
		r.log = append(r.log, "boundary")
	default:
		r.log = append(r.log, "other "+rec.Type)
	}
}
func (r *recorder) Lines(reading int64) lines.Lines {
	r.log = append(r.log, fmt.Sprintf("lines %d", reading))
	return caps
}
func (r *recorder) Predict(int64) *replay.Prediction  { return nil }
func (r *recorder) Forecast(int64) *replay.Prediction { return nil }

// TestModelSeesWhatTheHookWould checks the order of the seam's calls: the
// lines after a response are asked for once all its records are observed,
// and before anything that follows it in the file.
func TestModelSeesWhatTheHookWould(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	rec := func(id string, ctx, out int) string {
		return fmt.Sprintf(`{"type":"assistant","message":{"id":%q,"model":"m","content":[{"type":"tool_use","id":"t%s"}],"usage":{"input_tokens":%d,"output_tokens":%d}}}`, id, id, ctx, out)
	}
	agent := `{"type":"progress","data":{"message":{"type":"assistant"}}}`
	file := rec("a", 10, 1) + "\n" + agent + "\n" + rec("a", 10, 5) + "\n" + agent + "\n" +
		`{"type":"system","subtype":"compact_boundary","compactMetadata":{"preTokens":10}}` + "\n" +
		rec("b", 20, 1) + "\n" + agent + "\n"
	if err := os.WriteFile(p, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	var r recorder
	replay.File(replay.Source{Path: p}, replay.Options{NewModel: func(string) replay.Model { return &r }})
	want := []string{"response a", "other progress", "response a", "lines 10", "other progress", "boundary",
		"response b", "lines 20", "other progress"}
	if !slices.Equal(r.log, want) {
		t.Errorf("calls:\n got %q\nwant %q", r.log, want)
	}
	// A response without a tool call gets no hook call: no lines asked.
	file = strings.ReplaceAll(file, `"content":[{"type":"tool_use","id":"tb"}],`, "")
	if err := os.WriteFile(p, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	r = recorder{}
	replay.File(replay.Source{Path: p}, replay.Options{NewModel: func(string) replay.Model { return &r }})
	want = []string{"response a", "other progress", "response a", "lines 10", "other progress", "boundary",
		"response b", "other progress"}
	if !slices.Equal(r.log, want) {
		t.Errorf("no tool call:\n got %q\nwant %q", r.log, want)
	}
}

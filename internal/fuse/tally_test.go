package fuse

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
)

// rec writes one assistant record.
func rec(id, model string, in, read, write, out int64, side bool, ts string) string {
	return fmt.Sprintf(`{"type":"assistant","isSidechain":%v,"timestamp":%q,"message":{"id":%q,"model":%q,"usage":{"input_tokens":%d,"cache_read_input_tokens":%d,"cache_creation_input_tokens":%d,"output_tokens":%d}}}`+"\n",
		side, ts, id, model, in, read, write, out)
}

const ts0 = "2026-12-01T10:00:00.000Z"

func pricer(t testing.TB) Pricer {
	tab, err := prices.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return TablePricer(tab)
}

// opus prices usage at claude-opus-4-6's rates (5 in, 0.50 read, 6.25
// write, 25 out per million).
func opus(in, read, write, out int64) float64 {
	return (float64(in)*5 + float64(read)*0.5 + float64(write)*6.25 + float64(out)*25) / 1e6
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestTallyLastRecordOfAnIDCounts(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "s.jsonl")
	data := rec("m1", "claude-opus-4-6", 10, 1000, 200, 5, false, ts0) +
		`{"type":"user","message":{"content":"x"}}` + "\n" +
		rec("m1", "claude-opus-4-6", 10, 1000, 200, 80, false, ts0) +
		rec("m2", "unknown-model-9", 1, 2, 3, 4, false, ts0) +
		rec("m3", "<synthetic>", 100, 0, 0, 0, false, ts0)
	os.WriteFile(main, []byte(data), 0o644)
	var tl Tally
	tl.Update([]string{main}, pricer(t))
	got := tl.Total()
	want := Sum{USD: opus(10, 1000, 200, 80), Tokens: 10 + 1000 + 200 + 80 + 10, UnpricedTokens: 10, Responses: 2}
	if !near(got.USD, want.USD) || got.Tokens != want.Tokens || got.UnpricedTokens != want.UnpricedTokens || got.Responses != want.Responses {
		t.Fatalf("total %+v, want %+v", got, want)
	}
	if len(tl.Unpriced) != 1 || tl.Unpriced[0] != "unknown-model-9" {
		t.Errorf("unpriced %v", tl.Unpriced)
	}
}

// TestTallySubagentsOnce: a subagent's response held inline (a sidechain)
// and in its subagents/ file counts once; own and subagent spend add up.
func TestTallySubagentsOnce(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "s.jsonl")
	os.MkdirAll(filepath.Join(dir, "s", "subagents"), 0o755)
	sub := filepath.Join(dir, "s", "subagents", "agent-a1.jsonl")
	os.WriteFile(main, []byte(rec("m1", "claude-opus-4-6", 10, 0, 0, 10, false, ts0)+
		rec("sa1", "claude-opus-4-6", 100, 0, 0, 0, true, ts0)), 0o644)
	os.WriteFile(sub, []byte(rec("sa1", "claude-opus-4-6", 100, 0, 0, 0, true, ts0)+
		rec("sa2", "claude-haiku-4-5", 1000, 0, 0, 0, true, ts0)), 0o644)
	files := Files(main)
	if len(files) != 2 || files[1] != sub {
		t.Fatalf("Files = %v", files)
	}
	var tl Tally
	tl.Update(files, pricer(t))
	got := tl.Total()
	if got.Responses != 3 || got.Tokens != 20+100+1000 {
		t.Fatalf("total %+v, want 3 responses, 1120 tokens", got)
	}
	if s := tl.Subagents(); s.Responses != 1 {
		t.Errorf("subagents' own files hold %d counted responses, want 1 (sa1 was counted inline)", s.Responses)
	}
}

// TestTallyIncremental: reading a growing file in steps gives the total of
// one whole read; a half-written last line waits; a truncated or
// rewritten file is read again, and what it counted before still counts:
// spend only grows.
func TestTallyIncremental(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "s.jsonl")
	var whole strings.Builder
	var step Tally
	for i := range 20 {
		r := rec(fmt.Sprintf("m%d", i/2), "claude-opus-4-6", int64(i), 1000, 10, int64(10*i), false, ts0)
		whole.WriteString(r)
		half := len(r) / 2
		os.WriteFile(main, []byte(whole.String()[:whole.Len()-len(r)+half]), 0o644)
		step.Update([]string{main}, pricer(t))
		os.WriteFile(main, []byte(whole.String()), 0o644)
		step.Update([]string{main}, pricer(t))
	}
	var once Tally
	once.Update([]string{main}, pricer(t))
	if a, b := step.Total(), once.Total(); !near(a.USD, b.USD) || a.Tokens != b.Tokens || a.Responses != 10 {
		t.Fatalf("in steps %+v, at once %+v", a, b)
	}
	// Truncated and rewritten: the new file's one response adds to what
	// the old one counted.
	before := step.Total()
	os.WriteFile(main, []byte(strings.Repeat(rec("z", "claude-opus-4-6", 1, 0, 0, 0, false, ts0), 1)), 0o644)
	step.Update([]string{main}, pricer(t))
	if got := step.Total(); got.Responses != before.Responses+1 || got.Tokens != before.Tokens+1 {
		t.Fatalf("after a rewrite %+v, want %+v and the new file's one response", got, before)
	}
	if len(step.Tampered) != 1 {
		t.Errorf("the rewrite was not noted: %q", step.Tampered)
	}
	// Same length, different content: the check must notice.
	a := rec("y1", "claude-opus-4-6", 2, 0, 0, 0, false, ts0)
	b := rec("y2", "claude-opus-4-6", 3, 0, 0, 0, false, ts0)
	os.WriteFile(main, []byte(a), 0o644)
	step.Update([]string{main}, pricer(t))
	was := step.Total().Tokens
	os.WriteFile(main, []byte(b), 0o644)
	step.Update([]string{main}, pricer(t))
	if got := step.Total(); got.Tokens != was+3 {
		t.Fatalf("after a same-size rewrite %+v, want %d tokens", got, was+3)
	}
}

// TestTallyOnlyGrows: a record with negative, absurd or unpriceable usage
// counts nothing and is noted; a later record of a response that counts
// less than an earlier one is not taken; a saved tally holding a figure
// no counting makes is refused.
func TestTallyOnlyGrows(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "s.jsonl")
	good := rec("m1", "claude-opus-4-6", 10, 1000, 200, 80, false, ts0)
	os.WriteFile(main, []byte(good), 0o644)
	var tl Tally
	tl.Update([]string{main}, pricer(t))
	want := tl.Total()
	for _, bad := range []string{
		rec("m2", "claude-opus-4-6", -5000000, 0, 0, 0, false, ts0),
		rec("m3", "claude-opus-4-6", 0, -1, 0, 0, false, ts0),
		rec("m4", "claude-opus-4-6", 0, 0, 0, 1<<62, false, ts0),
		rec("m1", "claude-opus-4-6", 10, 1000, 200, 1, false, ts0), // m1 again, for less
		rec("m1", "claude-opus-4-6", 0, 0, 0, 0, false, ts0),
	} {
		f, _ := os.OpenFile(main, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(bad)
		f.Close()
		tl.Update([]string{main}, pricer(t))
		if got := tl.Total(); got != want {
			t.Fatalf("after %s the total is %+v, want %+v", bad, got, want)
		}
	}
	if len(tl.Tampered) == 0 {
		t.Errorf("negative and absurd usage not noted")
	}
	nan := func(p float64) Pricer {
		return func(string, *transcript.Usage) (float64, bool) { return p, true }
	}
	for _, p := range []float64{math.NaN(), math.Inf(1), -1} {
		var tl Tally
		tl.Update([]string{main}, nan(p))
		if got := tl.Total(); got.USD != 0 || got.Responses != 0 {
			t.Errorf("priced at %v: %+v", p, got)
		}
	}
	fo := tempFolder(t)
	name := fo.path("t" + SpendSuffix)
	for _, body := range []string{
		`{"format":3,"files":{"x":{"offset":1,"days":{"2026-12-01":{"usd":-5,"tokens":1,"responses":1}}}}}`,
		`{"format":3,"kept":{"2026-12-01":{"usd":1,"tokens":-1,"responses":1}}}`,
		`{"format":3,"files":{"x":null}}`,
		`{"format":3,"files":`,
	} {
		os.WriteFile(name, []byte(body), 0o644)
		if _, err := loadTally(fo, "t"); err == nil {
			t.Errorf("%s: loaded", body)
		}
	}
}

func TestTallyRoundTripAndDays(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "s.jsonl")
	os.WriteFile(main, []byte(rec("a", "claude-opus-4-6", 10, 0, 0, 0, false, "2026-11-30T23:59:00Z")+
		rec("b", "claude-opus-4-6", 20, 0, 0, 0, false, "2026-12-01T00:01:00Z")), 0o644)
	var tl Tally
	tl.Update([]string{main}, pricer(t))
	fo := tempFolder(t)
	os.WriteFile(fo.path("x"+SpendSuffix), tl.encode(), 0o644)
	back := Load(fo.dir, "x")
	if back.Day("2026-11-30").Tokens != 10 || back.Day("2026-12-01").Tokens != 20 || back.Transcript != main {
		t.Fatalf("days after a round trip: %+v %+v %q", back.Day("2026-11-30"), back.Day("2026-12-01"), back.Transcript)
	}
	now, _ := time.Parse(time.RFC3339, "2026-12-01T00:03:00Z")
	if got := back.Since(now.Add(-5 * time.Minute)).Tokens; got != 30 {
		t.Errorf("last 5 minutes: %d tokens, want 30", got)
	}
	if got := back.Since(now.Add(-2 * time.Minute)).Tokens; got != 20 {
		t.Errorf("last 2 minutes: %d tokens, want 20", got)
	}
}

// A tally far behind catches up over several bounded Reads, and ends
// where one unbounded read ends: an armed hook call reads within its
// deadline, and the next reads on from where it stopped.
func TestTallyCatchesUpInSlices(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "s.jsonl")
	var whole strings.Builder
	for i := range 400 {
		whole.WriteString(rec(fmt.Sprintf("m%d", i), "claude-opus-4-6", 1, 1000, 10, 5, false, ts0))
	}
	os.WriteFile(main, []byte(whole.String()), 0o644)
	var once Tally
	once.Update([]string{main}, pricer(t))

	slice := int64(whole.Len() / 7)
	var sliced Tally
	calls := 0
	for {
		before := sliced.Files[main]
		var from int64
		if before != nil {
			from = before.Offset
		}
		p := sliced.Read([]string{main}, pricer(t), &reading.Pass{Limit: slice}, "")
		if !p.Changed {
			t.Fatal("a Read behind the file read nothing")
		}
		if read := sliced.Files[main].Offset - from; read > slice+int64(len(rec("m0", "claude-opus-4-6", 1, 1000, 10, 5, false, ts0))) {
			t.Fatalf("one Read read %d bytes, past the slice of %d", read, slice)
		}
		if calls++; calls > 20 {
			t.Fatal("the tally does not catch up")
		}
		if !p.Behind {
			break
		}
	}
	if calls < 7 {
		t.Errorf("caught up in %d Reads; slices of a seventh need 7 or 8", calls)
	}
	if a, b := sliced.Total(), once.Total(); !near(a.USD, b.USD) || a.Tokens != b.Tokens {
		t.Fatalf("in slices %+v, at once %+v", a, b)
	}
	// A pass past its deadline reads nothing and says it is behind.
	var late Tally
	if p := late.Read([]string{main}, pricer(t), &reading.Pass{Deadline: time.Now().Add(-time.Second)}, ""); !p.Behind || late.Total().Responses != 0 {
		t.Fatalf("a late pass: %+v, %+v", p, late.Total())
	}
}

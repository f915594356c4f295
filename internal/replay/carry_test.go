package replay_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/transcript"
)

// table is a price table for tests: USD per million tokens.
type table map[string][5]float64 // input, 5m write, 1h write, read, output

func (t table) Cost(model, speed string, u *transcript.Usage) (replay.Parts, bool) {
	r, ok := t[model]
	if !ok {
		return replay.Parts{}, false
	}
	return replay.Parts{
		Write:  (float64(u.InputTokens)*r[0] + float64(u.Write5m())*r[1] + float64(u.Write1h())*r[2]) / 1e6,
		Read:   float64(u.CacheReadInputTokens) * r[3] / 1e6,
		Output: float64(u.OutputTokens) * r[4] / 1e6,
	}, true
}

var opus = table{"claude-opus-4-6": {5, 6.25, 10, 0.50, 25}}

// usage writes one assistant record with exact usage: ctx tokens of
// context of which w were written to the cache (1h when oneHour), 1 input,
// the rest read.
func usage(id, model string, ctx, w int64, oneHour bool, out int64) string {
	w5, w1 := w, int64(0)
	if oneHour {
		w5, w1 = 0, w
	}
	// Every response makes a tool call: the hook runs after each.
	return fmt.Sprintf(`{"type":"assistant","sessionId":"s","message":{"id":%q,"model":%q,"content":[{"type":"tool_use","id":"toolu_1","name":"Bash"}],"usage":{"input_tokens":1,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"cache_creation":{"ephemeral_5m_input_tokens":%d,"ephemeral_1h_input_tokens":%d},"output_tokens":%d}}}`,
		id, model, w, ctx-w-1, w5, w1, out)
}

func cost(ctx, w int64, oneHour bool, out int64) float64 {
	wr := 6.25
	if oneHour {
		wr = 10
	}
	return (5 + float64(w)*wr + float64(ctx-w-1)*0.5 + float64(out)*25) / 1e6
}

const compact = `{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":500000}}`

func replayLines(t *testing.T, opt replay.Options, records ...string) replay.Session {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(records, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return replay.File(replay.Source{Path: p}, opt)
}

func TestActualCarryOn(t *testing.T) {
	const m = "claude-opus-4-6"
	withPrices := fixed(caps)
	withPrices.Prices = opus
	before := []string{usage("a", m, 390_000, 5000, false, 100), usage("b", m, 400_000, 10_000, false, 200)} // pause at b (1)
	want3 := cost(450_000, 50_000, false, 300) + cost(499_999, 3000, true, 400) + cost(500_000, 1000, false, 900)

	tests := []struct {
		name     string
		opt      replay.Options
		after    []string
		want     float64 // NaN: null
		requests int
	}{
		{"up to and including the first at +100k", withPrices, []string{
			usage("c", m, 450_000, 50_000, false, 300),
			usage("d", m, 499_999, 3000, true, 400),
			usage("e", m, 500_000, 1000, false, 100), usage("e", m, 500_000, 1000, false, 900), // the last record counts
			usage("f", m, 510_000, 1000, false, 100),
		}, want3, 3},
		{"a compaction first", withPrices, []string{usage("c", m, 450_000, 50_000, false, 300), compact, usage("d", m, 520_000, 1, false, 1)}, math.NaN(), 0},
		{"an unpriced response first", withPrices, []string{usage("c", "gpt-9", 450_000, 50_000, false, 300), usage("d", m, 520_000, 1, false, 1)}, math.NaN(), 0},
		{"the session ends first", withPrices, []string{usage("c", m, 450_000, 50_000, false, 300)}, math.NaN(), 0},
		{"no price table", fixed(caps), []string{usage("c", m, 520_000, 1, false, 1)}, math.NaN(), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := replayLines(t, tt.opt, append(before, tt.after...)...)
			if len(s.Pauses) != 1 || s.Pauses[0].Response != 1 {
				t.Fatalf("pauses = %+v, want one at response 1", s.Pauses)
			}
			p := s.Pauses[0]
			if math.IsNaN(tt.want) {
				if p.ActualCarryOnUSD != nil {
					t.Errorf("actual = %v, want null", *p.ActualCarryOnUSD)
				}
				return
			}
			if p.ActualCarryOnUSD == nil {
				t.Fatalf("actual = null, want %.6f", tt.want)
			}
			if math.Abs(*p.ActualCarryOnUSD-tt.want) > 1e-9 {
				t.Errorf("actual = %.6f, want %.6f", *p.ActualCarryOnUSD, tt.want)
			}
			if p.ActualRequests == nil || *p.ActualRequests != tt.requests {
				t.Errorf("requests = %v, want %d", p.ActualRequests, tt.requests)
			}
		})
	}
}

// predicting is a Model with fixed lines that predicts a set carry-on.
type predicting struct{ usd float64 }

func (predicting) Observe(*transcript.Record, []byte) {}
func (predicting) Lines(int64) lines.Lines            { return caps }
func (p predicting) Predict(int64) *replay.Prediction {
	return &replay.Prediction{SavingUSD: 1, CarryOnUSD: p.usd, Requests: 40}
}
func (p predicting) Forecast(r int64) *replay.Prediction { return p.Predict(r) }

func TestTotals(t *testing.T) {
	const m = "claude-opus-4-6"
	opt := replay.Options{Prices: opus, NewModel: func(string) replay.Model { return predicting{10} }}
	// Two pauses in one session (a compaction re-arms), both judged.
	s := replayLines(t, opt,
		usage("a", m, 400_000, 0, false, 0), // pause at 0
		usage("b", m, 500_000, 0, false, 0), // closes a's window
		compact,
		usage("c", m, 100_000, 0, false, 0),
		usage("d", m, 420_000, 0, false, 0), // pause at 3
		usage("e", m, 520_000, 0, false, 0),
	)
	if got := notices(s); strings.Join(got, " ") != "pause@0 pause@3" {
		t.Fatalf("notices = %v", got)
	}
	a0 := cost(500_000, 0, false, 0)
	a1 := cost(520_000, 0, false, 0)
	for i, want := range []float64{a0, a1} {
		p := s.Pauses[i]
		if p.ActualCarryOnUSD == nil || math.Abs(*p.ActualCarryOnUSD-want) > 1e-9 || *p.PredictedCarryOnUSD != 10 || *p.SavingUSD != 1 {
			t.Errorf("pause %d = %+v, want actual %.4f predicted 10", i, p, want)
		}
	}
	quiet := replay.Session{Boundaries: []replay.Boundary{{Kind: "compact", AfterResponse: 4}}}
	late := replay.Session{Boundaries: []replay.Boundary{{Kind: "compact", AfterResponse: 4}},
		Notices: []replay.Notice{{Level: "warn", Response: 5}}}
	micro := replay.Session{Boundaries: []replay.Boundary{{Kind: "microcompact", AfterResponse: 1}}}
	tot := replay.Total([]replay.Session{s, quiet, late, micro, {Error: "boom"}})
	if tot.Sessions != 5 || tot.Pauses != 2 || tot.Notices != 3 || tot.Warnings != 1 || tot.Errors != 1 {
		t.Errorf("totals = %+v", tot)
	}
	if tot.CompactedBeforeAnyNotice != 2 {
		t.Errorf("compacted before any notice = %d, want 2 (quiet, late)", tot.CompactedBeforeAnyNotice)
	}
	wantErr := replay.Median([]float64{math.Abs(10-a0) / a0, math.Abs(10-a1) / a1})
	if tot.CarryOnPoints != 2 || tot.PauseCarryOnMedianAbsError == nil || math.Abs(*tot.PauseCarryOnMedianAbsError-wantErr) > 1e-12 {
		t.Errorf("median error = %v over %d, want %.6f over 2", tot.PauseCarryOnMedianAbsError, tot.CarryOnPoints, wantErr)
	}
	if *tot.PredictedCarryOnUSD != 20 || math.Abs(*tot.ActualCarryOnUSD-(a0+a1)) > 1e-9 {
		t.Errorf("sums = %v / %v", *tot.PredictedCarryOnUSD, *tot.ActualCarryOnUSD)
	}
}

func TestMedian(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
	}
	for _, tt := range tests {
		if got := replay.Median(tt.in); got != tt.want {
			t.Errorf("Median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if !math.IsNaN(replay.Median(nil)) {
		t.Error("Median(nil) is not NaN")
	}
}

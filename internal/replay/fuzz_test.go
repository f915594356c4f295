package replay

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/tools/gen"
)

type flatPrices struct{}

func (flatPrices) Cost(model, _ string, u *transcript.Usage) (Parts, bool) {
	return Parts{Read: float64(u.Context()) / 1e6, Output: float64(u.OutputTokens) / 1e6}, model != "unpriced"
}

// FuzzReplay feeds arbitrary bytes to the walk: it must not panic, and
// what it reports must hang together.
func FuzzReplay(f *testing.F) {
	var b bytes.Buffer
	rs := gen.Climb(250_000, 30_000, 8)
	rs[3].Before, rs[5].Before, rs[6].Before = "compact", "damaged", "synthetic"
	gen.WriteScript(&b, gen.Script{ID: "f", Responses: rs, Seed: 1, Progress: 1})
	f.Add(b.Bytes())
	f.Add([]byte(`{"type":"assistant","message":{"id":"a","model":"m","usage":{"input_tokens":500000}}}{"type":"assistant","message":{"id":"b","model":"unpriced","usage":{"input_tokens":1}}}` + "\n"))
	if shared, err := filepath.Glob(filepath.Join("..", "..", "..", "shared", "data", "transcripts", "*.jsonl")); err == nil {
		for _, p := range shared {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data[:min(len(data), 64<<10)])
			}
		}
	}
	ls := lines.Lines{Warn: lines.Line{Tokens: 300_000}, Pause: lines.Line{Tokens: 400_000}}
	opt := Options{Prices: flatPrices{}, Series: true, NewModel: func(string) Model { return FixedModel(ls) }}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := newReader().replay(bytes.NewReader(data), Source{Path: "f.jsonl"}, opt, func(int) {})
		if len(s.Readings) != s.Responses {
			t.Fatalf("%d readings for %d responses", len(s.Readings), s.Responses)
		}
		last := -1
		for _, n := range s.Notices {
			if n.Response < last || n.Response >= s.Responses || n.Reading > s.Peak || n.Reading != s.Readings[n.Response] {
				t.Fatalf("notice %+v out of place (responses %d, peak %d)", n, s.Responses, s.Peak)
			}
			last = n.Response
		}
		pauses := 0
		for _, n := range s.Notices {
			if n.Level == "pause" {
				pauses++
			}
		}
		if pauses != len(s.Pauses) {
			t.Fatalf("%d pause notices, %d pauses", pauses, len(s.Pauses))
		}
		for _, p := range s.Pauses {
			if p.ActualCarryOnUSD != nil && (*p.ActualRequests < 1 || *p.ActualCarryOnUSD < 0) {
				t.Fatalf("pause %+v", p)
			}
		}
		for _, b := range s.Boundaries {
			if b.AfterResponse >= s.Responses {
				t.Fatalf("boundary %+v after the last response", b)
			}
		}
	})
}

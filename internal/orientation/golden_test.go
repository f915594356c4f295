package orientation

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/ledger"

	"github.com/muthur/context-budget/tools/sharedtest"
)

var update = flag.Bool("update", false, "rewrite the golden rows")

// sharedTranscripts finds ../shared/data/transcripts beside the repository,
// or skips the test.
func sharedTranscripts(t testing.TB) string {
	return sharedtest.DirOrSkip(t)
}

var realSessions = []string{
	"4d5611e5-241a-462a-8d15-5122611a9569",
	"258c7280-ae70-4798-800f-63464d01a85d",
}

// TestGoldenRows builds the row of each real session, compares it with its
// golden file, and checks its totals against an independent count made
// here: every assistant record decoded as a plain map, one response per
// message.id with its last record winning, priced with rates typed below.
func TestGoldenRows(t *testing.T) {
	dir := sharedTranscripts(t)
	tab, err := prices.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range realSessions {
		t.Run(id[:8], func(t *testing.T) {
			path := filepath.Join(dir, id+".jsonl")
			s, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			row := Row(s, NewPricer(tab), "", Options{Finished: true})
			got, err := ledger.Marshal(&row)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", id+".json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("row differs from %s; got:\n%s", golden, got)
			}

			part, err := ReadOrientation(path)
			if err != nil {
				t.Fatal(err)
			}
			early := Orientation(part, NewPricer(tab), Options{})
			early.Spend.CostUSD = math.Round(early.Spend.CostUSD*1e8) / 1e8
			if early != *row.Orientation {
				t.Errorf("ReadOrientation measured %+v, the row %+v", early, *row.Orientation)
			}
			if len(part.Responses) >= len(s.Responses) {
				t.Errorf("ReadOrientation read all %d responses", len(part.Responses))
			}

			own, subs := independentCount(t, path)
			for _, c := range []struct {
				name string
				row  ledger.Tally
				ind  count
			}{{"ownTurns", row.OwnTurns, own}, {"subagents", row.Subagents, subs}} {
				if c.row.Responses != c.ind.responses || c.row.OutputTokens != c.ind.output ||
					c.row.CacheReadTokens != c.ind.read || c.row.InputTokens != c.ind.input ||
					c.row.CacheWrite5mTokens+c.row.CacheWrite1hTokens != c.ind.write {
					t.Errorf("%s: row %+v, independent count %+v", c.name, c.row, c.ind)
				}
				if math.Abs(c.row.CostUSD-c.ind.usd) > 1e-6 {
					t.Errorf("%s: row $%.6f, independent count $%.6f", c.name, c.row.CostUSD, c.ind.usd)
				}
			}
			if c := subs.responses; c == 0 {
				t.Error("the subagent files were not counted")
			}
		})
	}
}

type count struct {
	responses, input, write, read, output int64
	usd                                   float64
}

// rates are USD per million tokens: input, 5m write, 1h write, read,
// output, typed from Anthropic's price page for the models these sessions
// used.
var rates = map[string][5]float64{
	"claude-opus-4-6":            {5, 6.25, 10, 0.50, 25},
	"claude-sonnet-4-5-20250929": {3, 3.75, 6, 0.30, 15},
}

func independentCount(t *testing.T, path string) (own, subs count) {
	type usage struct {
		Input, Write, Write1h, Read, Output int64
		Model                               string
		Sub                                 bool
	}
	last := map[string]usage{}
	var order []string
	read := func(name string, sub bool) {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var rec map[string]any
			if json.Unmarshal(sc.Bytes(), &rec) != nil || rec["type"] != "assistant" {
				continue
			}
			msg, _ := rec["message"].(map[string]any)
			u, _ := msg["usage"].(map[string]any)
			model, _ := msg["model"].(string)
			id, _ := msg["id"].(string)
			if u == nil || model == "<synthetic>" {
				continue
			}
			num := func(m map[string]any, k string) int64 { f, _ := m[k].(float64); return int64(f) }
			cc, _ := u["cache_creation"].(map[string]any)
			x := usage{Input: num(u, "input_tokens"), Write: num(u, "cache_creation_input_tokens"),
				Write1h: num(cc, "ephemeral_1h_input_tokens"), Read: num(u, "cache_read_input_tokens"),
				Output: num(u, "output_tokens"), Model: model, Sub: sub || rec["isSidechain"] == true}
			if prev, ok := last[id]; ok && prev.Sub != x.Sub {
				continue
			}
			if _, ok := last[id]; !ok {
				order = append(order, id)
			}
			last[id] = x
		}
	}
	read(path, false)
	subFiles, _ := filepath.Glob(filepath.Join(path[:len(path)-len(".jsonl")], "subagents", "*.jsonl"))
	for _, f := range subFiles {
		read(f, true)
	}
	for _, id := range order {
		u := last[id]
		r, ok := rates[u.Model]
		if !ok {
			t.Fatalf("the test has no rates for %s", u.Model)
		}
		c := &own
		if u.Sub {
			c = &subs
		}
		c.responses++
		c.input += u.Input
		c.write += u.Write
		c.read += u.Read
		c.output += u.Output
		c.usd += (float64(u.Input)*r[0] + float64(u.Write-u.Write1h)*r[1] + float64(u.Write1h)*r[2] +
			float64(u.Read)*r[3] + float64(u.Output)*r[4]) / 1e6
	}
	return own, subs
}

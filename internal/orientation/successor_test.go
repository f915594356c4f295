package orientation

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/ledger"
)

// ledgerRow writes a row to root's ledger: relayed or not, measured at
// ctx tokens and usd dollars (ctx 0: never acted).
func ledgerRow(t *testing.T, root, id, prompt string, ctx int64, usd float64) string {
	t.Helper()
	r := &ledger.Row{SessionID: id, OpeningPrompt: prompt, FirstResponseAt: "2026-09-01T00:00:00Z", PricesAsOf: "x",
		Orientation: &ledger.Phase{ContextTokens: ctx, Spend: ledger.Tally{CostUSD: usd}}}
	if ctx > 0 {
		r.Orientation.EndedBy = "Edit"
	}
	name, err := ledger.Write(root, r)
	if err != nil {
		t.Fatal(err)
	}
	return name
}

func prior() (int64, float64, int) { return 142_000, 1.23, 186 }

// acted is a session that acts at 105k after one response of 90k.
func acted(opening string) []rec {
	return []rec{prompt(opening), resp("a", 1, 90_000, "", text()), resp("b", 2, 105_000, "", tool("Edit", "/repo/a.go"))}
}

func successor(t *testing.T, root string, s *Session) Reorientation {
	return Successor(SuccessorInputs{Root: root, Session: "s", Transcript: filepath.Join(s.dir, "s.jsonl"), Prior: prior})
}

func TestSuccessorSources(t *testing.T) {
	for _, tc := range []struct {
		name   string
		main   []rec
		rows   func(t *testing.T, root string)
		source Source
		w      int64
		r      float64
		words  string
		count  int
	}{
		{"own-relayed first", acted("/relay take main"), func(t *testing.T, root string) {
			ledgerRow(t, root, "a", "/relay take x", 50_000, 0.5)
		}, OwnRelayed, 105_000, readCost(90_000), "this session's own reorientation (it was relayed)", 0},
		{"then the ledger's relayed mean", acted("/go plan"), func(t *testing.T, root string) {
			ledgerRow(t, root, "a", "/relay take a", 90_000, 0.5)
			ledgerRow(t, root, "b", "/relay take b", 110_000, 0.7)
			ledgerRow(t, root, "c", "/go x", 50_000, 0.1)    // not relayed
			ledgerRow(t, root, "d", "/relay take d", 0, 0.9) // never acted
			os.WriteFile(filepath.Join(ledger.Dir(root), "2026-09", "bad.json"), []byte("{"), 0o644)
		}, LedgerRelayed, 100_000, 0.6, "the mean of 2 relayed sessions in the ledger", 2},
		{"one relayed row", []rec{prompt("/go plan")}, func(t *testing.T, root string) {
			ledgerRow(t, root, "a", "/relay take a", 90_000, 0.5)
		}, LedgerRelayed, 90_000, 0.5, "the one relayed session in the ledger", 1},
		{"a relayed session not measured yet uses the ledger", []rec{prompt("/relay take main"), resp("a", 1, 90_000, "", text())}, func(t *testing.T, root string) {
			ledgerRow(t, root, "a", "/relay take a", 80_000, 0.4)
		}, LedgerRelayed, 80_000, 0.4, "the one relayed session in the ledger", 1},
		{"then this session's own orientation", acted("/go plan"), func(t *testing.T, root string) {
			ledgerRow(t, root, "c", "/go x", 50_000, 0.1)
		}, Own, 105_000, readCost(90_000), "this session's own orientation", 0},
		{"then the prior", []rec{prompt("/go plan"), resp("a", 1, 90_000, "", tool("Write", "/repo/tmp/notes"))}, func(*testing.T, string) {},
			Prior, 142_000, 1.23, "the prior fitted on 186 fresh sessions of one project", 186},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			tc.rows(t, root)
			got := successor(t, root, session(t, tc.main))
			if got.Source != tc.source || got.Tokens != tc.w || math.Abs(got.CostUSD-tc.r) > 1e-9 || got.Words != tc.words || got.Count != tc.count {
				t.Errorf("got %+v; want %s W %d R %v %q", got, tc.source, tc.w, tc.r, tc.words)
			}
		})
	}
}

// TestOwnOrientationCached: once measured, a session's orientation is
// read from the state folder, not the transcript.
func TestOwnOrientationCached(t *testing.T) {
	root := t.TempDir()
	s := session(t, acted("/go plan"))
	first := successor(t, root, s)
	if first.Source != Own {
		t.Fatalf("first %+v", first)
	}
	os.WriteFile(filepath.Join(s.dir, "s.jsonl"), nil, 0o644)
	if again := successor(t, root, s); again != first {
		t.Errorf("after the transcript emptied: %+v, want %+v", again, first)
	}
}

// TestLedgerMeanCached: rows are re-read only when their file changes.
func TestLedgerMeanCached(t *testing.T) {
	root := t.TempDir()
	a := ledgerRow(t, root, "a", "/relay take a", 90_000, 0.5)
	ledgerRow(t, root, "b", "/relay take b", 110_000, 0.7)
	m, ok := LedgerMean(root)
	if !ok || m.Count != 2 || m.W != 100_000 {
		t.Fatalf("mean %+v", m)
	}
	// The same size and time with other content: the cache answers.
	info, _ := os.Stat(a)
	data, _ := os.ReadFile(a)
	swapped := []byte(string(data))
	copy(swapped[bytesIndex(swapped, "/relay take a"):], "/go   plan!!!")
	os.WriteFile(a, swapped, 0o644)
	os.Chtimes(a, info.ModTime(), info.ModTime())
	if m, _ := LedgerMean(root); m.Count != 2 {
		t.Errorf("the unchanged-looking row was re-read: %+v", m)
	}
	// A row re-written (a stop) is read again.
	ledgerRow(t, root, "a", "/relay take a", 130_000, 0.9)
	if m, _ := LedgerMean(root); m.Count != 2 || m.W != 120_000 || math.Abs(m.R-0.8) > 1e-9 {
		t.Errorf("after a re-write: %+v", m)
	}
	// A new row and a removed one.
	ledgerRow(t, root, "c", "/relay take c", 50_000, 0.2)
	os.Remove(a)
	if m, _ := LedgerMean(root); m.Count != 2 || m.W != 80_000 {
		t.Errorf("after add and remove: %+v", m)
	}
}

func bytesIndex(b []byte, s string) int {
	for i := 0; i+len(s) <= len(b); i++ {
		if string(b[i:i+len(s)]) == s {
			return i
		}
	}
	panic("not found")
}

// BenchmarkSuccessor1000 is the priced recompute's share with 1,000 rows
// in the ledger (50 relayed) and this session's orientation measured: the
// budget is 20 ms for the whole recompute.
func BenchmarkSuccessor1000(b *testing.B) {
	root := b.TempDir()
	for i := range 1000 {
		prompt := "/go plan"
		if i%20 == 0 {
			prompt = "/relay take x"
		}
		r := &ledger.Row{SessionID: fmt.Sprintf("s%04d", i), OpeningPrompt: prompt, PricesAsOf: "x",
			FirstResponseAt: fmt.Sprintf("2026-%02d-01T00:00:00Z", 1+i%10),
			ByRate:          map[string]ledger.Tally{"claude-opus-4-6/standard": {Responses: 100}},
			Orientation:     &ledger.Phase{EndedBy: "Edit", ContextTokens: 90_000, Spend: ledger.Tally{CostUSD: 0.5}}}
		if _, err := ledger.Write(root, r); err != nil {
			b.Fatal(err)
		}
	}
	dir := b.TempDir()
	writeSession(b, dir, acted("/go plan"))
	in := SuccessorInputs{Root: root, Session: "s", Transcript: filepath.Join(dir, "s.jsonl"), Prior: prior}
	time.Sleep(2100 * time.Millisecond) // past the racy window: the key is trusted
	b.Run("cold", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			os.RemoveAll(filepath.Join(root, "tmp"))
			if Successor(in).Source != LedgerRelayed {
				b.Fatal("source")
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			Successor(in)
		}
	})
	b.Run("one-row-changed", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			ledger.Write(root, &ledger.Row{SessionID: "s0001", PricesAsOf: "x", FirstResponseAt: "2026-02-01T00:00:00Z"})
			Successor(in)
		}
	})
}

// TestOwnOrientationSearch: a session that has not acted is searched only
// in its new bytes; when it acts, in its own file or a subagent's, the
// measure is the full one.
func TestOwnOrientationSearch(t *testing.T) {
	for _, tc := range []struct {
		name  string
		later []rec
		sub   bool
		by    string
		ctx   int64
		spent int64
	}{
		{"an edit of its own", []rec{resp("c", 3, 30_000, "", tool("Edit", "/repo/x.go"))}, false, "Edit", 30_000, 2},
		{"a subagent's edit", []rec{sub(resp("s1", 3, 5_000, "", tool("Write", "/repo/y.go")))}, true, "Write", 5_000, 2},
		{"a prompt after an open response", []rec{prompt("and now?")}, false, "end_turn", 20_000, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, dir := t.TempDir(), t.TempDir()
			first := []rec{prompt("/go plan"), resp("a", 1, 10_000, "", tool("Bash", "")), resp("b", 2, 20_000, "", tool("Write", "/repo/tmp/notes"))}
			path := writeSession(t, dir, first)
			in := SuccessorInputs{Root: root, Session: "s", Transcript: path, Prior: prior}
			if got := Successor(in); got.Source != Prior {
				t.Fatalf("before acting: %+v", got)
			}
			search := filepath.Join(root, "tmp", "context-budget", "s.orientation-search")
			if _, err := os.Stat(search); err != nil {
				t.Fatalf("no search record: %v", err)
			}
			if tc.sub {
				writeSession(t, dir, first, tc.later)
			} else {
				writeSession(t, dir, append(first, tc.later...))
			}
			got := Successor(in)
			ph, _, ok := ownOrientation(filepath.Join(root, "tmp", "context-budget"), in)
			if got.Source != Own || !ok || ph.EndedBy != tc.by || ph.ContextTokens != tc.ctx || ph.Spend.Responses != tc.spent {
				t.Errorf("after acting: %+v, phase %+v", got, ph)
			}
			if _, err := os.Stat(search); err == nil {
				t.Error("the search record outlived the measure")
			}
		})
	}
}

// writeRaw writes a row file as given, past the writer's checks: a
// committed row can hold anything.
func writeRaw(t *testing.T, root, id, body string) {
	t.Helper()
	dir := filepath.Join(ledger.Dir(root), "2026-10")
	os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, id+".json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Hostile figures in committed rows do not reach the mean: two rows of
// 2⁶² tokens overflowed the int64 sum (a warn line of −3·10¹⁸), 1e308
// dollars made it +Inf (pricing off), a negative cost was summed
// (issue 20, class 2). A tampered cache is read again.
func TestLedgerMeanHostileRows(t *testing.T) {
	root := t.TempDir()
	ledgerRow(t, root, "good", "/relay take a", 90_000, 0.5)
	writeRaw(t, root, "big1", `{"sessionId":"big1","openingPrompt":"/relay take x","orientation":{"endedBy":"Edit","contextTokens":4611686018427387904,"spend":{"costUsd":0.1}}}`)
	writeRaw(t, root, "big2", `{"sessionId":"big2","openingPrompt":"/relay take x","orientation":{"endedBy":"Edit","contextTokens":4611686018427387904,"spend":{"costUsd":0.1}}}`)
	writeRaw(t, root, "rich", `{"sessionId":"rich","openingPrompt":"/relay take x","orientation":{"endedBy":"Edit","contextTokens":50000,"spend":{"costUsd":1e308}}}`)
	writeRaw(t, root, "neg", `{"sessionId":"neg","openingPrompt":"/relay take x","orientation":{"endedBy":"Edit","contextTokens":50000,"spend":{"costUsd":-40}}}`)
	m, ok := LedgerMean(root)
	if !ok || m.Count != 1 || m.W != 90_000 || m.R != 0.5 || m.Skipped != 4 {
		t.Fatalf("mean %+v, want the good row alone and 4 skipped", m)
	}
	// The cache says a row contributes 2⁶² tokens: not believed.
	cache := filepath.Join(root, "tmp", "context-budget", "ledger-mean.json")
	data, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	tampered := bytesReplace(string(data), `"w":90000`, `"w":4611686018427387904`)
	os.WriteFile(cache, []byte(tampered), 0o644)
	if m, ok := LedgerMean(root); !ok || m.W != 90_000 {
		t.Errorf("after tampering with the cache: %+v", m)
	}
}

func bytesReplace(s, old, new string) string {
	i := bytesIndex([]byte(s), old)
	return s[:i] + new + s[i+len(old):]
}

// The row builder fed a NaN price (a hostile override) still gives a row
// the ledger writes (issue 20, class 3).
func TestRowNaNPrice(t *testing.T) {
	dir := t.TempDir()
	writeSession(t, dir, acted("/go plan"))
	s, err := Read(filepath.Join(dir, "s.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := prices.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for i := range tab.Rows {
		tab.Rows[i].CacheRead, tab.Rows[i].Input = math.NaN(), math.Inf(1)
	}
	row := Row(s, NewPricer(tab), "", Options{Finished: true})
	if _, err := ledger.Write(t.TempDir(), &row); err != nil {
		t.Fatalf("a row priced with NaN was not written: %v", err)
	}
	if err := row.Check(); err != nil {
		t.Errorf("the row is out of range: %v", err)
	}
}

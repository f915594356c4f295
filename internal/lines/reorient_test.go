package lines

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/orientation"
	"github.com/muthur/context-budget/ledger"
)

// TestReorientFromTheLedger: with a root whose ledger holds measured
// relayed sessions, the reorientation is their mean, named so, and the
// priced lines move with it; the line cache's dependencies no longer
// hold once a row is written.
func TestReorientFromTheLedger(t *testing.T) {
	root := t.TempDir()
	transcript := filepath.Join(root, "s.jsonl")
	os.WriteFile(transcript, nil, 0o644)
	call := Call{Dir: t.TempDir(), ID: "s", Root: root, Transcript: transcript, Getenv: func(string) string { return "" }}
	deps := call.deps()

	in := Input{Settings: settings(t, nil), Table: table(t), History: climbHistory("claude-opus-4-6", 210_000), Reading: 210_000,
		Root: root, SessionID: "s", TranscriptPath: transcript}
	est := Decide(in)
	if est.Reorientation.Source != orientation.Estimate {
		t.Fatalf("empty ledger: %+v", est.Reorientation)
	}
	for _, id := range []string{"a", "b"} {
		r := &ledger.Row{SessionID: id, OpeningPrompt: "/relay take main", PricesAsOf: "x", FirstResponseAt: "2026-09-01T00:00:00Z",
			Orientation: &ledger.Phase{EndedBy: "Edit", ContextTokens: 50_000, Spend: ledger.Tally{CostUSD: 0.30}}}
		if _, err := ledger.Write(root, r); err != nil {
			t.Fatal(err)
		}
	}
	if deps.Hold(call.Getenv) {
		t.Error("the cache's dependencies still hold after rows were written")
	}
	d := Decide(in)
	want := Reorientation{Tokens: 50_000, CostUSD: 0.30, Source: orientation.LedgerRelayed, Count: 2, Words: "the mean of 2 relayed sessions in the ledger"}
	if d.Reorientation != want {
		t.Errorf("reorientation %+v, want %+v", d.Reorientation, want)
	}
	// A cheaper successor than the estimate moves the priced lines earlier.
	if !(d.Lines.Warn.Tokens < est.Lines.Warn.Tokens) {
		t.Errorf("warn line %d with the ledger, %d with the estimate", d.Lines.Warn.Tokens, est.Lines.Warn.Tokens)
	}
	if got := orientation.Words(orientation.Estimate, 0); est.Reorientation.Words != got {
		t.Errorf("estimate words %q", est.Reorientation.Words)
	}
}

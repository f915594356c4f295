package lines

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/muthur/context-budget/internal/forecast"
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
	if est.Reorientation.Source != orientation.Prior {
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
	// A cheaper successor than the prior moves the priced lines earlier.
	if !(d.Lines.Warn.Tokens < est.Lines.Warn.Tokens) {
		t.Errorf("warn line %d with the ledger, %d with the prior", d.Lines.Warn.Tokens, est.Lines.Warn.Tokens)
	}
	if got := orientation.Words(orientation.Prior, forecast.Shipped.Orientations); est.Reorientation.Words != got || got != "the prior fitted on 186 fresh sessions of one project" {
		t.Errorf("prior words %q", est.Reorientation.Words)
	}
}

// TestPriorWhileOrienting: the prior gives a successor a fresh session's
// growth before it acts; a session that has not acted yet and has grown
// further is itself the evidence that finding one's feet here takes at
// least that growth (up to the growth after which the forecast counts it
// as working anyway), so no line falls inside its own orientation.
func TestPriorWhileOrienting(t *testing.T) {
	for _, tc := range []struct {
		reading int64
		acted   bool
		want    int64
	}{
		{45_000, false, 40_000 + int64(forecast.Shipped.Orientation.Growth)}, // within the prior's growth
		{90_000, false, 90_000},                                              // still orienting at 90k
		{150_000, false, 40_000 + forecast.OrientationGrowth},                // past that, working anyway
		{150_000, true, 40_000 + int64(forecast.Shipped.Orientation.Growth)}, // acted: the prior
	} {
		h := climbHistory("claude-opus-4-6", tc.reading)
		h.Acted = tc.acted
		// On a 1M window, so that only pricing sets the lines.
		d := Decide(Input{Settings: settings(t, nil), Table: table(t), History: h, Reading: tc.reading, StatuslineWindow: 1_000_000})
		if d.Reorientation.Source != orientation.Prior || d.Reorientation.Tokens != tc.want {
			t.Errorf("at %d, acted %v: %+v; want W %d", tc.reading, tc.acted, d.Reorientation, tc.want)
		}
		if !tc.acted && tc.reading < 40_000+forecast.OrientationGrowth && d.Lines.Pause.Tokens <= tc.reading {
			t.Errorf("at %d, not acted: the pause at %d falls inside the session's own orientation", tc.reading, d.Lines.Pause.Tokens)
		}
	}
}

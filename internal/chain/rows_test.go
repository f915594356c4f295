package chain

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/ledger"
)

// TestChainRowsKeepTheTally: a chain carried on counts its earlier
// sessions from the ledger's rows, files the agent can write, but no
// session for less than the fuse's tally of it, which kept what its
// transcript held before it was emptied.
func TestChainRowsKeepTheTally(t *testing.T) {
	config, tree := t.TempDir(), t.TempDir()
	getenv := func(k string) string { return map[string]string{"CLAUDE_CONFIG_DIR": config}[k] }
	transcript := filepath.Join(config, "projects", "-tree", "s1.jsonl")
	os.MkdirAll(filepath.Dir(transcript), 0o755)
	// $2.00 of cache reads at Opus 4.6's $0.50 a million.
	line := fmt.Sprintf(`{"type":"assistant","cwd":%q,"timestamp":"2026-12-01T10:00:00.000Z","message":{"id":"m1","model":"claude-opus-4-6","usage":{"input_tokens":0,"cache_read_input_tokens":4000000,"cache_creation_input_tokens":0,"output_tokens":0}}}`+"\n", tree)
	if err := os.WriteFile(transcript, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	tg := fuse.Target{Root: tree, ID: "s1", Transcript: transcript, Getenv: getenv, Now: time.Now()}
	if err := fuse.ArmCap(tg, tuning.Amount{USD: 100}); err != nil {
		t.Fatal(err)
	}
	row := ledger.Row{SessionID: "s1", FirstResponseAt: "2026-12-01T10:00:00Z", Chain: "c1", Place: 1}
	row.Total.CostUSD = 0.01 // what a forged transcript gave the row
	if _, err := ledger.Write(tree, &row); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(transcript, 0); err != nil {
		t.Fatal(err)
	}
	tab, err := prices.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	price := fuse.TablePricer(tab)
	if usd, last := chainRows(tree, "c1", fuse.Dir(getenv, tree), price); math.Abs(usd-2) > 1e-9 || last != 1 {
		t.Errorf("with the fuse's folder: $%v at place %d, want $2 (the tally) at 1", usd, last)
	}
	if usd, _ := chainRows(tree, "c1", "", price); math.Abs(usd-0.01) > 1e-9 {
		t.Errorf("without: $%v, want the row's $0.01", usd)
	}
}

package fuse

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/orientation"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/tools/sharedtest"
)

// TestTallyMatchesLedgerOnRealSessions: on the shared real transcripts,
// the fuse's tally, read in uneven pieces as a live session grows (its
// subagents' files included), comes to the ledger's row: the same
// responses, tokens and dollars.
func TestTallyMatchesLedgerOnRealSessions(t *testing.T) {
	dir := sharedtest.DirOrSkip(t)
	names, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(names) == 0 {
		t.Skip("no shared transcripts")
	}
	tab, err := prices.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		s, err := orientation.Read(name)
		if err != nil || len(s.Responses) == 0 {
			continue
		}
		row := orientation.Row(s, orientation.NewPricer(tab), "", orientation.Options{Finished: true})
		// Grow a copy of the session in pieces and tally after each.
		work := t.TempDir()
		main := filepath.Join(work, filepath.Base(name))
		files := Files(name)
		copies := []string{main}
		for _, sub := range files[1:] {
			c := filepath.Join(strings.TrimSuffix(main, ".jsonl"), "subagents", filepath.Base(sub))
			os.MkdirAll(filepath.Dir(c), 0o755)
			copies = append(copies, c)
		}
		var tl Tally
		price := TablePricer(tab)
		for step := 1; step <= 7; step++ {
			for i, src := range files {
				grow(t, src, copies[i], step, 7)
			}
			tl.Update(Files(main), price)
		}
		got, want := tl.Total(), row.Total
		wantTokens := want.InputTokens + want.CacheWrite5mTokens + want.CacheWrite1hTokens + want.CacheReadTokens + want.OutputTokens
		if got.Responses != want.Responses || got.Tokens != wantTokens || math.Abs(got.USD-want.CostUSD) > 1e-6 {
			t.Errorf("%s: tally %+v, ledger %d responses, %d tokens, $%.6f", filepath.Base(name), got, want.Responses, wantTokens, want.CostUSD)
		}
	}
}

// grow writes the first step/of of src to dst, cut at an uneven byte.
func grow(t *testing.T, src, dst string, step, of int) {
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	n := len(data) * step / of
	if step < of {
		n -= 17 * step // mid-line, not at a record's end
	}
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	if int64(n) <= fi.Size() {
		return
	}
	f.Seek(fi.Size(), io.SeekStart)
	f.Write(data[fi.Size():n])
}

package spool

import (
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/ledger"
)

// TestSpool: records read back in order; parallel writers' lines land
// whole; lines that are not records, or out of range, are skipped.
func TestSpool(t *testing.T) {
	dir := state.Dir(t.TempDir())
	n := ledger.Notice{Level: "warn", At: "2026-12-01T10:00:00Z", Reading: 251_000, Warn: 250_000, Pause: 305_000,
		Verdict: &ledger.Verdict{Choice: "relay", Against: "compact", NetUSD: -0.25, Policy: "relay"}}
	if err := Notice(dir, "s1", n); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			if err := Chain(dir, "s1", ChainSession{Chain: "c1", Place: i + 1, Ended: "handed over", At: "2026-12-01T11:00:00Z"}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	f, err := os.OpenFile(File(dir, "s1"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("not json\n{\"kind\":\"other\"}\n{\"kind\":\"notice\",\"notice\":{\"level\":\"warn\",\"reading\":-1}}\n" +
		`{"kind":"notice","notice":{"level":"sideways","reading":1}}` + "\n" + `{"kind":"chain_session","chain":{"chain":"../x","place":1}}` + "\n")
	f.Close()
	recs := Read(dir, "s1")
	if len(recs) != 21 || recs[0].Kind != KindNotice || *recs[0].Notice.Verdict != *n.Verdict {
		t.Fatalf("%d records, first %+v", len(recs), recs[0])
	}
	places := map[int]bool{}
	for _, r := range recs[1:] {
		places[r.Chain.Place] = true
	}
	if len(places) != 20 {
		t.Errorf("%d distinct places, want 20", len(places))
	}
	if ns := Notices(recs); len(ns) != 1 || ns[0].Reading != 251_000 {
		t.Errorf("notices %+v", ns)
	}
	if Read(dir, "../s1") != nil || Notice(dir, "../s1", n) == nil {
		t.Error("a session id that is not a plain name")
	}
}

// FuzzRead: whatever a spool holds, Read returns only records of a known
// kind that are in range, never more than MaxRecords.
func FuzzRead(f *testing.F) {
	f.Add(`{"kind":"notice","notice":{"level":"pause","at":"x","reading":1,"warn":1,"pause":1}}` + "\n")
	f.Add(`{"kind":"chain_session","chain":{"chain":"c","place":1,"costUsd":1e309}}`)
	f.Add(strings.Repeat(`{"kind":"notice","notice":{"level":"warn"}}`+"\n", 3))
	f.Fuzz(func(t *testing.T, data string) {
		dir := state.Dir(t.TempDir())
		if err := state.Ensure(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(File(dir, "s"), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		recs := Read(dir, "s")
		if len(recs) > MaxRecords {
			t.Fatalf("%d records", len(recs))
		}
		for _, r := range recs {
			if !r.valid() {
				t.Fatalf("invalid record read: %+v", r)
			}
			if r.Kind == KindNotice && r.Notice.Check() != nil {
				t.Fatalf("out of range: %+v", r.Notice)
			}
		}
	})
}

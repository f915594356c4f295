package linecache

import (
	"bytes"
	"os"
	"testing"

	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/restart"
)

// TestCachedFromHeader: the status line's answer from the header equals
// the whole entry's in every field it shows, and in the relay's saving at
// readings from far below to far above the band.
func TestCachedFromHeader(t *testing.T) {
	for _, rate := range []string{config.RateSinceBoundary, config.RateForecast} {
		t.Run(rate, func(t *testing.T) {
			f := newFixture(t)
			f.env[config.EnvRate] = rate
			f.at(150_000)
			e, ok := Load(FileName(f.s.Dir, f.s.ID))
			if !ok {
				t.Fatal("no cache")
			}
			d, ok := Cached(&f.s)
			if !ok {
				t.Fatal("Cached missed a fresh cache")
			}
			w := e.Decision
			if d.Lines.Warn.Tokens != w.Lines.Warn.Tokens || d.Lines.Pause.Tokens != w.Lines.Pause.Tokens ||
				d.Lines.Warn.SetBy != w.Lines.Warn.SetBy || d.Lines.Pause.SetBy != w.Lines.Pause.SetBy ||
				d.Priced != w.Priced || d.Cost != w.Cost || d.BandAbove != w.BandAbove || (d.Band == nil) != (w.Band == nil) ||
				(d.Band != nil && *d.Band != *w.Band) {
				t.Fatalf("from the header %+v\nwhole %+v", d, w)
			}
			if !w.Priced {
				t.Fatal("the fixture did not price: the test checks nothing")
			}
			for _, c := range []int64{1_000, 60_000, 150_000, 250_000, 900_000} {
				if a, b := d.Money(c).SavingUSD, w.Money(c).SavingUSD; a != b {
					t.Errorf("at %d: saving %v from the header, %v whole", c, a, b)
				}
			}
		})
	}
}

// TestCachedOlderHeader: a cache with the hit header but no status line
// (the build before) still answers the status line, by the whole entry,
// and the hook's next hit adds the status line.
func TestCachedOlderHeader(t *testing.T) {
	f := newFixture(t)
	f.at(60_000)
	name := FileName(f.s.Dir, f.s.ID)
	data, _ := os.ReadFile(name)
	head, js := entryJSON(data)
	old := append(append(append([]byte(nil), head...), '\n'), js...)
	os.WriteFile(name, old, 0o644)
	if _, ok := Cached(&f.s); !ok {
		t.Fatal("Cached missed a cache without the status line")
	}
	if _, hit, _ := Decide(&f.s); !hit {
		t.Fatal("Decide missed")
	}
	now, _ := os.ReadFile(name)
	if _, rest := splitHeader(now); !bytes.HasPrefix(rest, []byte(statusTag)) {
		t.Fatalf("the hit did not add the status line:\n%.300s", now)
	}
}

// FuzzParseStatus: any status line parses or is refused, never panics,
// and what parses writes back to the same numbers.
func FuzzParseStatus(f *testing.F) {
	e := &Entry{}
	e.Decision.Priced = true
	e.Decision.Lines.Warn.SetBy, e.Decision.Lines.Pause.SetBy = "priced", "cap"
	e.Decision.Cost = restart.Model{Rates: restart.Rates{Read: 5e-7, Output: 2.5e-5, Write: 6.25e-6}, Q: 0.001, W: 20_000, R: 0.1}
	f.Add(bytes.TrimSuffix(statusHeader(e), []byte("\n")))
	f.Add([]byte("S 1 - - 0 1 2 3 4 5 6 7 8 1 2 3 4 5 6 7 8"))
	f.Add([]byte("S 2 a b c"))
	f.Fuzz(func(t *testing.T, line []byte) {
		if !bytes.HasPrefix(line, []byte(statusTag)) {
			return
		}
		d, ok := parseStatus(line, e.Decision.Lines)
		if !ok {
			return
		}
		again, ok := parseStatus(bytes.TrimSuffix(statusHeader(&Entry{Decision: d}), []byte("\n")), d.Lines)
		if !ok || again.Cost != d.Cost || again.Priced != d.Priced || again.BandAbove != d.BandAbove {
			t.Fatalf("%q parsed to %+v, wrote back to %+v (%v)", line, d, again, ok)
		}
	})
}

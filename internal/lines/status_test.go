package lines

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/internal/window"
)

// fromHeader prices a fixture at 150k under rate and returns it, the
// whole entry's Decision and what read answers from the header.
func fromHeader(t *testing.T, rate string, read func(*Call) (Decision, bool)) (*fixture, Decision, Decision) {
	t.Helper()
	f := newFixture(t)
	f.env[config.EnvRate] = rate
	f.at(150_000)
	e, ok := Load(FileName(f.call.Dir, f.call.ID))
	if !ok {
		t.Fatal("no cache")
	}
	d, ok := read(&f.call)
	if !ok {
		t.Fatal("the header missed a fresh cache")
	}
	return f, e.Decision, d
}

// TestCachedFromHeader: the status line's answer from the header equals
// the whole entry's in every field it shows, and in the relay's saving at
// readings from far below to far above the band.
func TestCachedFromHeader(t *testing.T) {
	for _, rate := range []string{config.RateSinceBoundary, config.RateForecast} {
		t.Run(rate, func(t *testing.T) {
			_, w, d := fromHeader(t, rate, Cached)
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
	name := FileName(f.call.Dir, f.call.ID)
	data, _ := os.ReadFile(name)
	head, js, whole := entryJSON(data)
	if !whole {
		t.Fatalf("this build wrote a cache without every header line:\n%.600s", data)
	}
	old := append(append(append([]byte(nil), head...), '\n'), js...)
	os.WriteFile(name, old, 0o644)
	if _, ok := Cached(&f.call); !ok {
		t.Fatal("Cached missed a cache without the status line")
	}
	if _, ok := noticeOf(&f.call); ok {
		t.Fatal("Notice answered from a header without its line")
	}
	if _, hit, _ := DecideCached(&f.call); !hit {
		t.Fatal("DecideCached missed")
	}
	now, _ := os.ReadFile(name)
	if _, rest := splitHeader(now); !bytes.HasPrefix(rest, []byte(statusTag)) {
		t.Fatalf("the hit did not add the status line:\n%.300s", now)
	}
	if _, ok := noticeOf(&f.call); !ok {
		t.Fatalf("the hit did not add the notice line:\n%.600s", now)
	}
	if _, ok := Load(name); !ok {
		t.Fatal("the upgraded cache does not load")
	}
}

// TestCachedStatusNoNotice: a cache with the hit and status lines but no
// notice line (the build before) answers the status line from its
// header, and the hook's next hit adds the notice line.
func TestCachedStatusNoNotice(t *testing.T) {
	f := newFixture(t)
	f.at(60_000)
	name := FileName(f.call.Dir, f.call.ID)
	data, _ := os.ReadFile(name)
	head, rest := splitHeader(data)
	i := bytes.IndexByte(rest, '\n')
	_, js, _ := entryJSON(data)
	old := append(append(append(append([]byte(nil), head...), '\n'), rest[:i+1]...), js...)
	os.WriteFile(name, old, 0o644)
	if _, ok := Cached(&f.call); !ok {
		t.Fatal("Cached missed a cache without the notice line")
	}
	if _, ok := noticeOf(&f.call); ok {
		t.Fatal("Notice answered from a header without its line")
	}
	if _, ok := Load(name); !ok {
		t.Fatal("a cache without the notice line does not load")
	}
	if _, hit, _ := DecideCached(&f.call); !hit {
		t.Fatal("DecideCached missed")
	}
	if _, ok := noticeOf(&f.call); !ok {
		now, _ := os.ReadFile(name)
		t.Fatalf("the hit did not add the notice line:\n%.600s", now)
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

// TestNoticeFromHeader: what a notice says, read from the header, is what
// the whole entry says: the lines with their sources, the money at
// readings across the band, the window (the notice's words are made from it), the compactions.
func TestNoticeFromHeader(t *testing.T) {
	for _, rate := range []string{config.RateSinceBoundary, config.RateForecast} {
		t.Run(rate, func(t *testing.T) {
			f, w, d := fromHeader(t, rate, noticeOf)
			if !w.Priced || w.Reorientation.Words == "" || w.Window.CompactsAt == 0 {
				t.Fatalf("the fixture did not price: the test checks nothing: %+v", w)
			}
			if rate == config.RateForecast && w.Spread == nil {
				t.Fatal("the forecast rate gave no spread: the test checks less than it says")
			}
			if d.Lines != w.Lines || d.Window != w.Window || d.Compactions != w.Compactions {
				t.Fatalf("from the header %+v\nwhole %+v", d, w)
			}
			for _, c := range []int64{1_000, 60_000, 150_000, 250_000, 900_000} {
				if a, b := d.Money(c), w.Money(c); *a != *b {
					t.Errorf("at %d: %+v from the header, %+v whole", c, *a, *b)
				}
			}
			// Past the reading's freshness the header does not answer.
			f.call.Reading = 150_000 + Regrowth
			if _, ok := noticeOf(&f.call); ok {
				t.Error("Notice answered a reading the cache does not hold")
			}
		})
	}
}

// FuzzParseNotice: any notice line parses or is refused, never panics,
// and what parses writes back to the same line.
func FuzzParseNotice(f *testing.F) {
	e := &Entry{}
	e.Decision.Window = window.Window{Tokens: 200_000, CompactsAt: 167_000, Source: "default", CompactSource: "table", Version: "2.1.332", Count: 40, Sessions: 12, PauseRoom: 23_000}
	e.Decision.Reorientation.Words = "the ledger's \"relayed\" sessions"
	e.Decision.Spread = &forecast.Band{Share: 0.8, Lo: 0.6, Hi: 1.7}
	f.Add(bytes.TrimSuffix(noticeHeader(e), []byte("\n")))
	e.Decision.Spread = nil
	f.Add(bytes.TrimSuffix(noticeHeader(e), []byte("\n")))
	f.Add([]byte(`N 1 2 3 4 5 - "" "" "" "" ""`))
	f.Add([]byte(`N 1 2 3 4 5 1 2 3 "a" "b`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if !bytes.HasPrefix(line, []byte(noticeTag)) {
			return
		}
		var d Decision
		if !parseNotice(line, &d) {
			return
		}
		var again Decision
		back := bytes.TrimSuffix(noticeHeader(&Entry{Decision: d}), []byte("\n"))
		if !parseNotice(back, &again) || again.Window != d.Window || again.Reorientation.Words != d.Reorientation.Words ||
			again.PaceFrom != d.PaceFrom || (again.Spread == nil) != (d.Spread == nil) || (d.Spread != nil && *again.Spread != *d.Spread) {
			t.Fatalf("%q parsed to %+v, wrote back to %q", line, d, back)
		}
	})
}

// FuzzFields holds fields to bytes.Fields on any line: the same fields,
// cut at maxFields.
func FuzzFields(f *testing.F) {
	f.Add([]byte("S 1 priced env 120000 3 15 3.75 0.1 5000 0.2 0.5 0.01"))
	f.Add([]byte("  a\tb\u00a0c\u0085d \xff e  "))
	f.Add([]byte(strings.Repeat("x ", 30)))
	f.Fuzz(func(t *testing.T, line []byte) {
		got, n := fields(line)
		want := bytes.Fields(line)
		if len(want) > maxFields {
			want = want[:maxFields]
		}
		if n != len(want) {
			t.Fatalf("fields(%q): %d fields, bytes.Fields %d", line, n, len(want))
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("fields(%q)[%d] = %q, bytes.Fields %q", line, i, got[i], want[i])
			}
		}
	})
}

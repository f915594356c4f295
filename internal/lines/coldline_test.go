package lines

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/muthur/context-budget/internal/config"
	"github.com/muthur/context-budget/internal/history"
)

// writeModelClimb is writeClimb on model, every response writing the
// 1-hour cache from response write1hFrom on (-1: none).
func writeModelClimb(t *testing.T, path, model string, c int64, write1hFrom int) {
	t.Helper()
	var b strings.Builder
	for i := 0; 40_000+2_500*int64(i) <= c; i++ {
		ctx := 40_000 + 2_500*int64(i)
		read := ctx - 2_500
		if i == 0 {
			read = 38_000
		}
		w5, w1 := ctx-read, int64(0)
		if write1hFrom >= 0 && i >= write1hFrom {
			w5, w1 = 0, ctx-read
		}
		fmt.Fprintf(&b, `{"type":"assistant","message":{"id":"m%d","model":%q,"usage":{"input_tokens":0,"cache_read_input_tokens":%d,"cache_creation_input_tokens":%d,"cache_creation":{"ephemeral_5m_input_tokens":%d,"ephemeral_1h_input_tokens":%d},"output_tokens":50}}}`+"\n",
			i, model, read, ctx-read, w5, w1)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sameCold fails t unless what Cold read from the header prices as the
// whole entry does: Priced, the cost model at every reading (the band's
// above its start), the first response's cache read and the 1-hour flag.
func sameCold(t *testing.T, d Decision, h history.History, e Entry) {
	t.Helper()
	w := &e.Decision
	if d.Priced != w.Priced || d.Cost != w.Cost || d.BandAbove != w.BandAbove || (d.Band == nil) != (w.Band == nil) ||
		(d.Band != nil && *d.Band != *w.Band) {
		t.Fatalf("from the header %+v\nwhole %+v", d, *w)
	}
	for _, c := range []int64{1, 60_000, 99_999, 100_000, 100_001, 150_000, 200_001, 900_000} {
		if d.At(c) != w.At(c) {
			t.Fatalf("at %d: %+v from the header, %+v whole", c, d.At(c), w.At(c))
		}
	}
	if (h.First == nil) != (e.History.First == nil) || (h.First != nil && h.First.CacheRead != e.History.First.CacheRead) ||
		h.TTL1h != e.History.TTL1h {
		t.Fatalf("from the header first %+v, 1h %v; whole first %+v, 1h %v", h.First, h.TTL1h, e.History.First, e.History.TTL1h)
	}
}

// TestColdFromHeader: what the cold check prices with, read from the
// header, is what the whole entry holds, for a 5-minute and a 1-hour
// session and a model whose rates change above a band, priced and not.
func TestColdFromHeader(t *testing.T) {
	for _, tc := range []struct {
		name, model string
		write1hFrom int
	}{
		{"opus 5m", "claude-opus-4-6", -1},
		{"opus 1h", "claude-opus-4-6", 0},
		{"opus 1h once", "claude-opus-4-6", 3},
		{"haiku band", "claude-haiku-5-5", -1},
		{"haiku band 1h", "claude-haiku-5-5", 10},
		{"unpriced model", "claude-unknown-9", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, rate := range []string{config.RateSinceBoundary, config.RateForecast} {
				f := newFixture(t)
				f.env[config.EnvRate] = rate
				for _, c := range []int64{60_000, 97_500, 150_000} {
					writeModelClimb(t, f.call.Transcript, tc.model, c, tc.write1hFrom)
					st, _ := config.FromEnv(f.call.Getenv)
					f.call.Settings, f.call.Reading = st, c
					if _, _, err := DecideCached(&f.call); err != nil {
						t.Fatal(err)
					}
					name := FileName(f.call.Dir, f.call.ID)
					e, ok := Load(name)
					if !ok {
						t.Fatal("no cache")
					}
					d, h, ok := Cold(name)
					if !ok {
						t.Fatal("Cold missed a cache this build wrote")
					}
					sameCold(t, d, h, e)
					if priced := tc.model != "claude-unknown-9"; e.Decision.Priced != priced || e.History.First == nil {
						t.Fatalf("priced %v, first %+v: the case checks less than it says", e.Decision.Priced, e.History.First)
					}
					if want := tc.write1hFrom >= 0 && 40_000+2_500*int64(tc.write1hFrom) <= c; e.History.TTL1h != want {
						t.Fatalf("TTL1h %v, want %v: the case checks less than it says", e.History.TTL1h, want)
					}
					if tc.model == "claude-haiku-5-5" && e.Decision.Band == nil {
						t.Fatal("no band: the case checks less than it says")
					}
				}
			}
		})
	}
}

// TestColdAnyKey: the cold mark takes the cache whatever Key it was made
// under (the status line's whole read did too), so Cold does not check it.
func TestColdAnyKey(t *testing.T) {
	f := newFixture(t)
	f.at(150_000)
	f.env[config.EnvWarnSaving] = "0.35"
	st, _ := config.FromEnv(f.call.Getenv)
	f.call.Settings = st
	if _, ok := Cached(&f.call); ok {
		t.Fatal("the key did not change: the test checks nothing")
	}
	name := FileName(f.call.Dir, f.call.ID)
	e, _ := Load(name)
	d, h, ok := Cold(name)
	if !ok {
		t.Fatal("Cold declined a cache made under another key")
	}
	sameCold(t, d, h, e)
}

// TestColdOlderHeader: a cache with the hit, status and notice lines but
// no cold line (the build before) is no answer for Cold, still answers
// the status line and the notice from its header and loads whole; the
// hook's next hit adds the cold line, from the history.
func TestColdOlderHeader(t *testing.T) {
	f := newFixture(t)
	f.at(150_000)
	name := FileName(f.call.Dir, f.call.ID)
	data, _ := os.ReadFile(name)
	i := bytes.Index(data, []byte("\n"+coldTag))
	if i < 0 {
		t.Fatalf("no cold line:\n%.800s", data)
	}
	j := bytes.IndexByte(data[i+1:], '\n')
	old := append(append([]byte(nil), data[:i+1]...), data[i+1+j+1:]...)
	if _, _, whole := entryJSON(old); whole {
		t.Fatal("a header without the cold line reads as whole")
	}
	os.WriteFile(name, old, 0o644)
	if _, _, ok := Cold(name); ok {
		t.Fatal("Cold answered from a header without its line")
	}
	if _, ok := Cached(&f.call); !ok {
		t.Fatal("Cached missed a cache without the cold line")
	}
	if _, ok := noticeOf(&f.call); !ok {
		t.Fatal("Notice missed a cache without the cold line")
	}
	if _, ok := Load(name); !ok {
		t.Fatal("a cache without the cold line does not load")
	}
	if _, hit, _ := DecideCached(&f.call); !hit {
		t.Fatal("DecideCached missed")
	}
	now, _ := os.ReadFile(name)
	if !bytes.Equal(now, data) {
		t.Fatalf("the upgraded cache is not the one this build writes:\n%s\nwant\n%s", now, data)
	}
	e, _ := Load(name)
	d, h, ok := Cold(name)
	if !ok {
		t.Fatal("the hit did not add the cold line")
	}
	sameCold(t, d, h, e)
}

// TestColdUpgradeBadHistory: an older cache whose history does not decode
// gets a cold line of no history, which prices nothing, as the whole
// read, failing, gave the cold mark nothing to price with.
func TestColdUpgradeBadHistory(t *testing.T) {
	f := newFixture(t)
	f.at(150_000)
	name := FileName(f.call.Dir, f.call.ID)
	data, _ := os.ReadFile(name)
	_, js, _ := entryJSON(data)
	bad := bytes.Replace(js, []byte(`"history":{"offset":`), []byte(`"history":{"offset":"x","was":`), 1)
	if bytes.Equal(bad, js) {
		t.Fatalf("no history in %.300s", js)
	}
	os.WriteFile(name, bad, 0o644)
	if _, ok := Load(name); ok {
		t.Fatal("a history that does not decode loads")
	}
	if _, hit, _ := DecideCached(&f.call); !hit {
		t.Fatal("DecideCached missed")
	}
	d, h, ok := Cold(name)
	if !ok || h.First != nil || h.TTL1h || !d.Priced {
		t.Fatalf("Cold after the upgrade: %v, first %+v, 1h %v, priced %v", ok, h.First, h.TTL1h, d.Priced)
	}
}

func TestParseCold(t *testing.T) {
	for _, tc := range []struct {
		h    history.History
		line string
	}{
		{history.History{}, "C - 0"},
		{history.History{TTL1h: true}, "C - 1"},
		{history.History{First: &history.Response{CacheRead: 38_000, Context: 40_000, ID: "m0"}}, "C 38000 0"},
		{history.History{First: &history.Response{CacheRead: -5}, TTL1h: true}, "C -5 1"},
	} {
		got := coldHeader(&Entry{History: tc.h})
		if string(got) != tc.line+"\n" {
			t.Errorf("coldHeader(%+v) = %q, want %q", tc.h, got, tc.line)
		}
		var h history.History
		if !parseCold([]byte(tc.line), &h) || h.TTL1h != tc.h.TTL1h || (h.First == nil) != (tc.h.First == nil) ||
			(h.First != nil && h.First.CacheRead != tc.h.First.CacheRead) {
			t.Errorf("parseCold(%q) = %+v", tc.line, h)
		}
	}
	for _, bad := range []string{"C ", "C -", "C 1", "C - 2", "C x 0", "C 1 0 0", "C 99999999999999999999 0", "C - -"} {
		if parseCold([]byte(bad), &history.History{}) {
			t.Errorf("parseCold(%q) accepted", bad)
		}
	}
}

// FuzzParseCold: any cold line parses or is refused, never panics, and
// what parses writes back to a line that parses the same.
func FuzzParseCold(f *testing.F) {
	f.Add([]byte("C 38000 0"))
	f.Add([]byte("C - 1"))
	f.Add([]byte("C -5 1"))
	f.Add([]byte("C 1 2 3"))
	f.Fuzz(func(t *testing.T, line []byte) {
		if !bytes.HasPrefix(line, []byte(coldTag)) {
			return
		}
		var h history.History
		if !parseCold(line, &h) {
			return
		}
		back := coldHeader(&Entry{History: h})
		var again history.History
		if !parseCold(bytes.TrimSuffix(back, []byte("\n")), &again) || again.TTL1h != h.TTL1h || (again.First == nil) != (h.First == nil) ||
			(h.First != nil && again.First.CacheRead != h.First.CacheRead) || bytes.Count(back, []byte("\n")) != 1 {
			t.Fatalf("%q parsed to %+v, wrote back to %q", line, h, back)
		}
	})
}

package lines

import (
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/config"
)

// TestHitAgreesWithDecideCached: wherever DecideCached would answer from the cache,
// Hit answers the same lines from the header alone; wherever Decide
// would recompute (growth, a drop, a changed key), Hit declines.
func TestHitAgreesWithDecideCached(t *testing.T) {
	f := newFixture(t)
	for _, c := range []int64{60_000, 62_500, 65_000, 70_000, 72_500, 75_000, 67_500, 90_000, 92_500} {
		writeClimb(t, f.call.Transcript, c)
		st, _ := config.FromEnv(f.call.Getenv)
		f.call.Settings, f.call.Reading = st, c
		x, ok := Hit(&f.call, new(HeaderBuf))
		lines, compactions := x.Lines(), x.Compactions()
		d, hit, err := DecideCached(&f.call)
		if err != nil {
			t.Fatal(err)
		}
		if ok != hit {
			t.Fatalf("at %d: Hit %v, DecideCached's hit %v", c, ok, hit)
		}
		if ok && (lines != d.Lines.Tokens() || compactions != d.Compactions) {
			t.Fatalf("at %d: Hit's lines %+v (%d compactions), DecideCached's %+v (%d)", c, lines, compactions, d.Lines.Tokens(), d.Compactions)
		}
	}
	// A changed setting changes the key: no hit.
	f.env[config.EnvWarnSaving] = "0.35"
	st, _ := config.FromEnv(f.call.Getenv)
	f.call.Settings = st
	if _, ok := Hit(&f.call, new(HeaderBuf)); ok {
		t.Error("Hit answered under a changed key")
	}
}

// TestHitWithoutHeader: a cache written before the header existed (plain
// JSON) is no hit for Hit but still loads.
func TestHitWithoutHeader(t *testing.T) {
	f := newFixture(t)
	f.at(60_000)
	name := FileName(f.call.Dir, f.call.ID)
	data, _ := os.ReadFile(name)
	head, rest, _ := entryJSON(data)
	if head == nil {
		t.Fatalf("no header in %q", data)
	}
	os.WriteFile(name, rest, 0o644)
	if _, ok := Hit(&f.call, new(HeaderBuf)); ok {
		t.Error("Hit answered from a file without a header")
	}
	if _, ok := Load(name); !ok {
		t.Error("a file without a header no longer loads")
	}
	if _, hit, _ := DecideCached(&f.call); !hit {
		t.Error("DecideCached missed on a file without a header")
	}
	// That hit added the header: the next call is Hit's.
	if _, ok := Hit(&f.call, new(HeaderBuf)); !ok {
		t.Error("a hit on a file without a header did not add one")
	}
}

// TestHitHostileFiles: a cache that is a FIFO or a link to /dev/zero is
// no hit and does not block or read without end.
func TestHitHostileFiles(t *testing.T) {
	f := newFixture(t)
	f.at(60_000)
	name := FileName(f.call.Dir, f.call.ID)
	os.Remove(name)
	if err := syscall.Mkfifo(name, 0o644); err == nil {
		if _, ok := Hit(&f.call, new(HeaderBuf)); ok {
			t.Error("a FIFO answered")
		}
		os.Remove(name)
	}
	if os.Symlink("/dev/zero", name) == nil {
		if _, ok := Hit(&f.call, new(HeaderBuf)); ok {
			t.Error("/dev/zero answered")
		}
	}
}

func TestParseHeader(t *testing.T) {
	e := &Entry{Key: "v2|a \"quoted\"\npath|", Reading: 65_000}
	e.Decision.Lines.Warn.Tokens, e.Decision.Lines.Pause.Tokens = 170_000, 200_000
	e.Decision.Compactions = 2
	h := header(e)
	head, rest := splitHeader(append(h, []byte("{}\n")...))
	if string(rest) != "{}\n" {
		t.Fatalf("rest %q", rest)
	}
	r, ls, n, key, ok := parseHeader(head)
	if !ok || r != 65_000 || ls != (climb.LineTokens{Warn: 170_000, Pause: 200_000}) || n != 2 || key != e.Key {
		t.Fatalf("parseHeader(%q) = %d %+v %d %q %v", head, r, ls, n, key, ok)
	}
	for _, bad := range []string{"H ", "H 1 2", "H 1 2 3", "H 1 2 3 4", "H x 2 3 4 \"k\"", "H 1 2 3 4 k", "H 1 2 3 4 \"k",
		"H 99999999999999999999 2 3 4 \"k\"", "H 1 0 3 4 \"k\"", "H 1 2 3 -1 \"k\""} {
		if _, _, _, _, ok := parseHeader([]byte(bad)); ok {
			t.Errorf("parseHeader(%q) accepted", bad)
		}
	}
}

func FuzzParseHeader(f *testing.F) {
	f.Add([]byte("H 65000 170000 200000 1 \"v2|caps\""))
	f.Add([]byte("H 1 2 3 0 \"\\n\""))
	f.Fuzz(func(t *testing.T, data []byte) {
		head, _ := splitHeader(data)
		if head == nil {
			return
		}
		r, ls, n, key, ok := parseHeader(head)
		if !ok {
			return
		}
		// What parses round-trips through header.
		e := &Entry{Key: key, Reading: r}
		e.Decision.Lines.Warn.Tokens, e.Decision.Lines.Pause.Tokens = ls.Warn, ls.Pause
		e.Decision.Compactions = n
		h := header(e)
		r2, ls2, n2, key2, ok2 := parseHeader(h[:len(h)-1])
		if !ok2 || r2 != r || ls2 != ls || n2 != n || key2 != key || strings.ContainsRune(string(h[:len(h)-1]), '\n') {
			t.Fatalf("round trip of %q: %q", head, h)
		}
	})
}

// noticeOf is what a notice says for call from its cache's header, as the
// hook takes it: a hit, then its Notice.
func noticeOf(call *Call) (Decision, bool) {
	x, ok := Hit(call, new(HeaderBuf))
	if !ok {
		return Decision{}, false
	}
	return x.Notice()
}

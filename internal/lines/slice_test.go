package lines

import (
	"os"
	"testing"

	"github.com/muthur/context-budget/internal/tuning"
)

// TestBoundedPass: with the pass bounded to a slice, a long transcript's
// first priced calls each read at most one slice (and one line), the
// lines stay unpriced until the pass has caught up, and the lines then
// are those of an unbounded pass. Each call resumes the pass, even at a
// reading that would be a cache hit.
func TestBoundedPass(t *testing.T) {
	const reading = 210_000
	whole := newFixture(t)
	want, _ := whole.at(reading)

	defer func(n int64) { passSlice = n }(passSlice)
	passSlice = 4 << 10
	f := newFixture(t)
	writeClimb(t, f.call.Transcript, reading)
	fi, err := os.Stat(f.call.Transcript)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	var last int64
	for {
		got, hit := f.at(reading)
		calls++
		e, ok := Load(f.call.Dir, f.call.ID)
		if !ok {
			t.Fatal("no cache entry")
		}
		h := f.history()
		if hit && e.Partial {
			t.Fatalf("call %d: a hit while the pass catches up", calls)
		}
		if read := h.Offset - last; read > passSlice+1024 {
			t.Fatalf("call %d read %d bytes, slice %d", calls, read, passSlice)
		}
		last = h.Offset
		if !e.Partial {
			if got != want {
				t.Errorf("caught up after %d calls: %+v, want %+v", calls, got, want)
			}
			if h.Offset != fi.Size() {
				t.Errorf("offset %d of %d", h.Offset, fi.Size())
			}
			break
		}
		if e.Decision.Priced || got == want {
			t.Fatalf("call %d: lines %+v priced before the pass caught up", calls, got)
		}
		if calls > 100 {
			t.Fatal("the pass does not catch up")
		}
	}
	if min := fi.Size() / passSlice; int64(calls) < min {
		t.Errorf("%d calls for %d bytes in slices of %d", calls, fi.Size(), passSlice)
	}
	// Caught up: the next call at the same reading is a hit again.
	if _, hit := f.at(reading); !hit {
		t.Error("no hit after the pass caught up")
	}
}

// TestBoundedPassKeepsKnownLines: a pass that falls behind again (more
// than a slice appended since the last recompute) keeps the lines of the
// last complete decision until it catches up.
func TestBoundedPassKeepsKnownLines(t *testing.T) {
	whole := newFixture(t)
	whole.at(150_000)
	after, _ := whole.at(260_000)
	f := newFixture(t)
	before, _ := f.at(150_000)
	if after == before {
		t.Fatal("the lines do not move between the two readings; the test needs others")
	}
	defer func(n int64) { passSlice = n }(passSlice)
	passSlice = 4 << 10
	writeClimb(t, f.call.Transcript, 260_000)
	st, _ := tuning.FromEnv(f.call.Getenv)
	f.call.Settings, f.call.Reading = st, 260_000
	d, _, err := DecideCached(&f.call)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := Load(f.call.Dir, f.call.ID)
	if !e.Partial {
		t.Fatal("the pass caught up in one slice; the test needs more bytes")
	}
	if d.Lines != before {
		t.Errorf("lines moved while the pass catches up: %+v, were %+v", d.Lines, before)
	}
}

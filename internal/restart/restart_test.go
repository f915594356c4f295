package restart

import (
	"math"
	"testing"
)

// opus46 are Opus 4.6's rates with 5-minute writes.
var opus46 = PerMillion(25, 0.50, 6.25)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestPinnedExampleOne(t *testing.T) {
	m := Model{Rates: opus46, Q: 40.0 / Slice, W: 120_000, R: 0.90}
	for _, tc := range []struct {
		d    float64
		want int64
	}{{0.20, 189_744}, {0.80, 220_513}} {
		got, ok := m.Line(tc.d)
		if !ok || got != tc.want {
			t.Errorf("Line(%v) = %d, %v; want %d", tc.d, got, ok, tc.want)
		}
	}
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"saving", m.Saving(250_000), 1.375},
		{"relay up front", m.RelayUpfront(250_000), 1.225},
		{"carry on", m.CarryOn(250_000), 6.625},
		// Relaying over the slice = carrying on − saving.
		{"relay over slice", m.RelayOverSlice(250_000), 6.625 - 1.375},
	} {
		if !near(tc.got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

// TestRamp: the successor's reorientation from its first context, by
// the formula's parts.
func TestRamp(t *testing.T) {
	k := Ramp{Growth: 12_000, FirstWrite: 0.8, Requests: 4, OutPerRequest: 50}
	w, r := k.Reorientation(opus46, 40_000)
	// (0.8·40k + 12k)·w + 4·(40k + 6k)·r + 4·50·o
	want := 44_000*opus46.Write + 4*46_000*opus46.Read + 200*opus46.Output
	if w != 52_000 || !near(r, want) {
		t.Errorf("Reorientation = %d, %v; want 52000, %v", w, r, want)
	}
	if w, r := (Ramp{}).Reorientation(opus46, 40_000); w != 40_000 || r != 0 {
		t.Errorf("a session that acts at once: %d, %v", w, r)
	}
}

// TestPinnedExampleTwo: the design's second worked example, with the
// reorientation its estimate gave (W = 100k, R = $0.9125).
func TestPinnedExampleTwo(t *testing.T) {
	w, r := int64(100_000), 0.9125
	m := Model{Rates: opus46, Q: 0.0004, W: w, R: r}
	warn, _ := m.Line(0.20)
	pause, _ := m.Line(0.80)
	if warn != 169_872 || pause != 200_641 {
		t.Errorf("lines = %d, %d; want 169872, 200641", warn, pause)
	}
	if got := m.Saving(210_000); !near(got, 0.9825) {
		t.Errorf("saving = %v, want 0.9825", got)
	}
	if got := m.RelayUpfront(210_000); !near(got, 1.2175) {
		t.Errorf("up front = %v, want 1.2175", got)
	}
	if got := m.CarryOn(210_000); !near(got, 5.825) {
		t.Errorf("carry on = %v, want 5.825", got)
	}
}

func TestNoLine(t *testing.T) {
	for _, q := range []float64{0, 0.5 / Slice, 1.0 / Slice} {
		m := Model{Rates: opus46, Q: q, W: 100_000, R: 1}
		if got, ok := m.Line(0.2); ok {
			t.Errorf("q=%v: Line = %d, want none (n ≤ 1)", q, got)
		}
	}
	m := Model{Rates: Rates{}, Q: 0.0004}
	if _, ok := m.Line(0.2); ok {
		t.Error("a zero read rate gave a line")
	}
}

// The saving at a line is its threshold: Line inverts Saving.
func TestLineInvertsSaving(t *testing.T) {
	m := Model{Rates: PerMillion(5, 0.10, 2), Q: 55.0 / Slice, W: 80_000, R: 0.3}
	for _, d := range []float64{0, 0.2, 0.8, 5} {
		c, ok := m.Line(d)
		if !ok {
			t.Fatalf("no line at %v", d)
		}
		if got := m.Saving(c); math.Abs(got-d) > 1e-5 {
			t.Errorf("Saving(Line(%v)) = %v", d, got)
		}
	}
}

// TestOver: carrying on over a growth is CarryOn at the slice, nothing
// at none, and adds up over consecutive stretches, with a rewrite share
// and output per request too; and it is the design's pinned figure
// scaled: 50k of growth from 250k at 40 requests per 100k is 20 requests
// at a mean 275k.
func TestOver(t *testing.T) {
	m := Model{Rates: opus46, Q: 40.0 / Slice, W: 120_000, R: 0.90, Rewrite: 0.03, OutPerRequest: 400}
	if got, want := m.Over(250_000, Slice), m.CarryOn(250_000); !near(got, want) {
		t.Errorf("Over(250k, S) = %v, CarryOn(250k) = %v", got, want)
	}
	if got := m.Over(250_000, 0); got != 0 {
		t.Errorf("Over(250k, 0) = %v", got)
	}
	whole := m.Over(130_000, 270_000)
	parts := m.Over(130_000, 100_000) + m.Over(230_000, 100_000) + m.Over(330_000, 70_000)
	if math.Abs(whole-parts) > 1e-9*whole {
		t.Errorf("Over(130k, 270k) = %v, the stretches add to %v", whole, parts)
	}
	plain := Model{Rates: opus46, Q: 40.0 / Slice}
	want := 20*opus46.Read*275_000 + 50_000*opus46.Write
	if got := plain.Over(250_000, 50_000); !near(got, want) {
		t.Errorf("Over(250k, 50k) = %v, want %v", got, want)
	}
}

// TestCompact: the compaction's figure is carrying on to the point, the
// summary request, the episode after it and the rest of the slice from
// the re-oriented context; none when the point lies past the slice.
func TestCompact(t *testing.T) {
	m := Model{Rates: opus46, Q: 40.0 / Slice, Rewrite: 0.02, OutPerRequest: 300}
	k := Compaction{PostShare: 0.3, FreshShare: 0.5, Requests: 4, Growth: 10_000}
	if _, ok := m.Compact(40_000, 167_000, k); ok {
		t.Error("a compaction 127k on is inside the slice")
	}
	got, ok := m.Compact(140_000, 167_000, k)
	if !ok {
		t.Fatal("no figure")
	}
	k0 := 0.3 * 167_000
	episode := 0.5*k0*m.Write + 0.5*k0*m.Read + 5*300*m.Output + 4*m.Read*(k0+5_000) + 10_000*m.Write
	want := m.Over(140_000, 27_000) + 167_000*m.Read + m.O() + episode + m.Over(int64(k0+10_000), Slice-27_000)
	if !near(got, want) || !near(m.CompactEpisode(167_000, k), episode) {
		t.Errorf("Compact = %v, want %v", got, want)
	}
	// Past the point, it compacts at once.
	at, _ := m.Compact(170_000, 167_000, k)
	if want := 170_000*m.Read + m.O() + m.CompactEpisode(170_000, k) + m.Over(k.After(170_000), Slice); !near(at, want) {
		t.Errorf("past the point: %v, want %v", at, want)
	}
}

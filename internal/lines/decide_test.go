package lines

import (
	"math"
	"testing"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/orientation"
	"github.com/muthur/context-budget/internal/prices"
	"github.com/muthur/context-budget/internal/tuning"
	"github.com/muthur/context-budget/internal/window"
)

// climbHistory is the pinned example's history at reading c: the first response
// at 40,000 (38,000 read), 2,500 more per response, 5m writes.
func climbHistory(model string, c int64) *forecast.History {
	k := int((c - 40_000) / 2_500)
	return &forecast.History{
		Responses: k + 1, Requests: k + 1, Peak: c, Acted: true,
		First: &forecast.Response{ID: "m0", Model: model, Context: 40_000, CacheRead: 38_000},
		Since: &forecast.Response{ID: "m0", Model: model, Context: 40_000, CacheRead: 38_000},
		Last:  &forecast.Response{ID: "mk", Model: model, Context: c, CacheRead: c - 2_500},
	}
}

func settings(t *testing.T, env map[string]string) tuning.Settings {
	t.Helper()
	s, err := tuning.FromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func table(t *testing.T) *prices.Table {
	t.Helper()
	tb, err := prices.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// decide decides for a climb with the design's estimator (§4), whose
// figures the issue pins, unless env names another.
func decide(t *testing.T, env map[string]string, model string, c int64) Decision {
	e := map[string]string{tuning.EnvRate: tuning.RateSinceBoundary}
	for k, v := range env {
		e[k] = v
	}
	return Decide(Input{Settings: settings(t, e), Table: table(t), History: climbHistory(model, c), Reading: c})
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// priorReorientation is the shipped prior's W and R for a session that
// started at 40k, at Opus 4.6's 5-minute rates (r = 0.5, w = 6.25,
// o = 25 per million): W = C₁ + Growth, R = (FirstWrite·C₁ + Growth)·w +
// Requests·(C₁ + Growth/2)·r + Requests·OutPerRequest·o.
func priorReorientation() (W, R float64) {
	const c1, r, w, o = 40_000.0, 0.5e-6, 6.25e-6, 25e-6
	k := forecast.Shipped.Orientation
	return c1 + math.Round(k.Growth), (k.FirstWrite*c1+k.Growth)*w + k.Requests*(c1+k.Growth/2)*r + k.Requests*k.OutPerRequest*o
}

// TestPinnedExample: the design's worked example (§4: q = 0.0004 at
// Opus 4.6's rates, n = 40, O = $0.20) with the successor's
// reorientation from the prior: a line at D is
// (D + n·r·W + O + R) / (r·(n − 1)), the saving (n − 1)·r·C − n·r·W − O − R.
func TestPinnedExample(t *testing.T) {
	d := decide(t, nil, "claude-opus-4-6", 210_000)
	W, R := priorReorientation()
	const n, r, O = 40.0, 0.5e-6, 0.20
	line := func(usd float64) int64 { return int64(math.Round((usd + n*r*W + O + R) / (r * (n - 1)))) }
	want := Lines{
		Warn:  Line{Tokens: line(0.20), SetBy: Priced, SavingUSD: 0.20},
		Pause: Line{Tokens: line(0.80), SetBy: Priced, SavingUSD: 0.80},
	}
	if d.Lines != want {
		t.Errorf("lines %+v, want %+v", d.Lines, want)
	}
	if !d.Priced || d.TTL != "5m" || !d.QMeasured || !near(d.Cost.Q, 0.0004) {
		t.Errorf("priced %v ttl %s q %v", d.Priced, d.TTL, d.Cost.Q)
	}
	if rr := d.Reorientation; float64(rr.Tokens) != W || !near(rr.CostUSD, R) || rr.Source != orientation.Prior || rr.Count != forecast.Shipped.Orientations {
		t.Errorf("reorientation %+v, want W %v R %v from the prior", rr, W, R)
	}
	m := d.Money(210_000)
	saving := (n-1)*r*210_000 - n*r*W - O - R
	if !near(m.SavingUSD, saving) || !near(m.UpfrontUSD, 210_000*r+O+R) || !near(m.CarryOnUSD, 5.825) {
		t.Errorf("money %+v; want saving %v", m, saving)
	}
	if w := d.Window; w.Tokens != 1_000_000 || w.Source != "observed" || w.CompactsAt != window.OneM-window.Shipped().DefaultBelow || w.CompactSource != window.PointDefault {
		t.Errorf("window %+v", d.Window)
	}
}

// TestForecast: with nothing measured the forecast's pace is the shipped
// prior (forecast.Shipped, fitted on real sessions), and the lines and
// the carrying-on figure are the cost model's at that pace: at Opus 4.6's
// 5-minute rates (r = 0.5, w = 6.25, o = 25 per million), W and R from
// the orientation's prior, O = $0.20,
//
//	pause = (0.80 + n·W·(r + ρ·w) + O + R) / ((n − 1)·r + ρ·n·w)
//	carry on at 210k = n·r·(C + S/2) + S·w + ρ·n·w·(C + S/2) + n·ō·o
//
// with n = 100,000 / Step. The output is in the carrying-on figure but not
// in the saving: a fresh session pays it alike.
func TestForecast(t *testing.T) {
	d := decide(t, map[string]string{tuning.EnvRate: tuning.RateForecast}, "claude-opus-4-6", 210_000)
	pr := forecast.Shipped.Prior("claude-opus-4-6")
	n, rho, out := 100_000/pr.Step, pr.Rewrite, pr.Out
	const r, w, o, O = 0.5e-6, 6.25e-6, 25e-6, 0.20
	W, R := priorReorientation()
	pause := (0.80 + n*W*(r+rho*w) + O + R) / ((n-1)*r + rho*n*w)
	if got := float64(d.Lines.Pause.Tokens); math.Abs(got-pause) > 0.5 || d.Lines.Pause.SetBy != Priced {
		t.Errorf("pause %+v, want %.1f", d.Lines.Pause, pause)
	}
	const c = 210_000.0
	carry := n*r*(c+50_000) + 100_000*w + rho*n*w*(c+50_000) + n*out*o
	saving := (n-1)*r*c - n*r*W + rho*n*w*(c-W) - O - R
	m := d.Money(210_000)
	if math.Abs(m.CarryOnUSD-carry) > 1e-6 || math.Abs(m.SavingUSD-saving) > 1e-6 {
		t.Errorf("money %+v, want carry on %.4f, saving %.4f", m, carry, saving)
	}
	// The fitted pace is real sessions', not the design's 40 per 100k.
	if n < 50 || n > 150 {
		t.Errorf("the shipped prior's pace is %.0f requests per 100k; real sessions run at 60–140", n)
	}
}

func TestPorts(t *testing.T) {
	const c = 210_000
	t.Run("a larger pause saving moves the pause out", func(t *testing.T) {
		d := decide(t, map[string]string{tuning.EnvPauseSaving: "1.50"}, "claude-opus-4-6", c)
		if d.Lines.Pause.SetBy != Priced || d.Lines.Pause.Tokens <= decide(t, nil, "claude-opus-4-6", c).Lines.Pause.Tokens {
			t.Errorf("pause %+v", d.Lines.Pause)
		}
		d = decide(t, map[string]string{tuning.EnvPauseSaving: "9"}, "claude-opus-4-6", c)
		if d.Lines.Pause != (Line{Tokens: tuning.PauseCap, SetBy: Cap}) {
			t.Errorf("past the cap: pause %+v", d.Lines.Pause)
		}
	})
	priced := decide(t, nil, "claude-opus-4-6", c).Lines.Pause
	t.Run("a hand-set warn leaves the pause priced", func(t *testing.T) {
		d := decide(t, map[string]string{tuning.EnvWarn: "150000"}, "claude-opus-4-6", c)
		if d.Lines.Warn != (Line{Tokens: 150_000, SetBy: Env}) || d.Lines.Pause != priced || d.Lines.Pause.SetBy != Priced {
			t.Errorf("lines %+v", d.Lines)
		}
	})
	t.Run("fixed means the caps and no pricing", func(t *testing.T) {
		d := Decide(Input{Settings: settings(t, map[string]string{tuning.EnvLines: "fixed"}), Reading: 310_000})
		if d.Priced || d.Money(310_000) != nil || d.Lines.Warn.SetBy != Cap || d.Lines.Pause.SetBy != Cap {
			t.Errorf("%+v", d)
		}
	})
	t.Run("an unknown model gives the caps", func(t *testing.T) {
		d := decide(t, nil, "claude-unknown-9", c)
		if d.Priced || d.Lines.Warn.Tokens != tuning.WarnCap || d.Lines.Pause.Tokens != tuning.PauseCap {
			t.Errorf("%+v", d)
		}
	})
	t.Run("a dated id is priced by its undated row", func(t *testing.T) {
		if d := decide(t, nil, "claude-opus-4-6-20260101", c); d.Lines.Pause != priced {
			t.Errorf("pause %+v", d.Lines.Pause)
		}
	})
}

func TestWindowCap(t *testing.T) {
	// Below 200k with nothing saying otherwise: the 200k window, which
	// a version the table does not know compacts at its cautious default;
	// the pause the relay's room and a step before, the warn 30k before
	// that.
	d := decide(t, nil, "claude-opus-4-6", 150_000)
	tb := window.Shipped()
	pause := window.Standard - tb.DefaultBelow - window.EnoughRoom - tb.StepAllowance
	want := Lines{
		Warn:  Line{Tokens: pause - WarnRoom, SetBy: Window},
		Pause: Line{Tokens: pause, SetBy: Window},
	}
	// The priced warn may come earlier still: the window only ever moves
	// a line earlier.
	if d.Lines.Pause != want.Pause || d.Lines.Warn.Tokens > want.Warn.Tokens || !d.Priced || d.Money(150_000) == nil {
		t.Errorf("lines %+v priced %v, want %+v (or a warn earlier) and the dollars", d.Lines, d.Priced, want)
	}
	// A reading past 200k flips the session to 1M: the lines move out.
	if d := decide(t, nil, "claude-opus-4-6", 200_001); d.Lines.Pause.SetBy != Priced {
		t.Errorf("past 200k: %+v", d.Lines)
	}
	// Lines fixed by env are not moved, and are reported.
	d = decide(t, map[string]string{tuning.EnvWarn: "150000", tuning.EnvPause: "180000"}, "claude-opus-4-6", 140_000)
	if d.Lines.Warn.Tokens != 150_000 || d.Lines.Pause.Tokens != 180_000 {
		t.Errorf("env lines moved: %+v", d.Lines)
	}
	if got := d.PastCompaction(); len(got) != 1 || got[0] != "pause" {
		t.Errorf("past compaction: %v", got)
	}
	// Fixed lines respect the window too.
	d = Decide(Input{Settings: settings(t, map[string]string{tuning.EnvLines: "fixed"}), Reading: 100_000})
	if d.Lines != want {
		t.Errorf("fixed on 200k: %+v", d.Lines)
	}
	// The transcript's requestedModel says 1M.
	d = Decide(Input{Settings: settings(t, map[string]string{tuning.EnvLines: "fixed"}), Reading: 100_000, RequestedModel: "claude-opus-4-6[1m]"})
	if d.Lines.Pause.SetBy != Cap || d.Window.Source != "transcript" {
		t.Errorf("[1m]: %+v %+v", d.Lines, d.Window)
	}
}

// Haiku 4.5 is cheap: its priced pause (the design's estimator, §4) lands
// past a 200k window, so the window sets it.
func TestHaikuWindow(t *testing.T) {
	h := climbHistory("claude-haiku-4-5-20251001", 150_000)
	s := settings(t, map[string]string{tuning.EnvRate: tuning.RateSinceBoundary})
	free := Decide(Input{Settings: s, Table: table(t), History: h, Reading: 150_000, StatuslineWindow: 2_000_000})
	if free.Lines.Pause.SetBy != Priced || free.Lines.Pause.Tokens < 200_000 {
		t.Errorf("on a large window, haiku's pause: %+v", free.Lines.Pause)
	}
	d := Decide(Input{Settings: s, Table: table(t), History: h, Reading: 150_000})
	if d.Lines.Pause.SetBy != Window || d.Lines.Pause.Tokens >= 167_000 {
		t.Errorf("haiku on 200k: %+v", d.Lines)
	}
}

// A row with a band prices a line past the band's start at the band's
// rates.
func TestBand(t *testing.T) {
	tb := table(t)
	h := climbHistory("claude-haiku-5-5", 150_000)
	d := Decide(Input{Settings: settings(t, nil), Table: tb, History: h, Reading: 150_000, StatuslineWindow: 1_000_000})
	base, _ := d.Cost.Line(0.80)
	if d.Band == nil || base <= d.BandAbove {
		t.Fatalf("band %v base line %d", d.Band, base)
	}
	if got := d.Lines.Pause.Tokens; got >= base || got <= d.BandAbove {
		t.Errorf("pause %d: want between the band's start %d and the base line %d", got, d.BandAbove, base)
	}
	if d.At(50_000) != d.Cost || d.At(150_000) != *d.Band {
		t.Error("At picks the wrong rates")
	}
}

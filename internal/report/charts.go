package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/replay"
)

// The report's colours: the reading, the warn line, the pause line, and
// the compactions.
var (
	readingColor = color.RGBA{R: 0x1f, G: 0x5f, B: 0xbf, A: 0xff}
	warnColor    = color.RGBA{R: 0xe0, G: 0x8a, B: 0x00, A: 0xff}
	pauseColor   = color.RGBA{R: 0xc0, G: 0x1c, B: 0x28, A: 0xff}
	compactColor = color.RGBA{R: 0x60, G: 0x60, B: 0x60, A: 0xff}
	microColor   = color.RGBA{R: 0xa0, G: 0xa0, B: 0xa0, A: 0xff}
)

// maxPoints bounds the points of one chart: a long session is bucketed,
// keeping each bucket's highest reading, so its peaks stay visible.
const maxPoints = 1500

// kTicks labels a token axis in thousands.
type kTicks struct{}

func (kTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = fmt.Sprintf("%.0fk", ts[i].Value/1000)
			if ts[i].Value == 0 {
				ts[i].Label = "0"
			}
		}
	}
	return ts
}

// intTicks labels a count axis with whole numbers only.
type intTicks struct{}

func (intTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range (plot.DefaultTicks{}).Ticks(lo, hi) {
		if t.Value != math.Trunc(t.Value) {
			// A fraction of a request means nothing: keep it unlabelled.
			t.Label = ""
		} else if t.Label != "" {
			t.Label = fmt.Sprintf("%.0f", t.Value)
		}
		out = append(out, t)
	}
	return out
}

// sessionLines are the lines the peaks chart shows: the median over the
// sessions of the lines each had at its own peak (priced lines move per
// session), and words saying so; the fallback when no session carries
// its lines.
func sessionLines(sessions []replay.Session, fallback lines.Lines) (lines.Lines, string) {
	var warns, pauses []int64
	for i := range sessions {
		s := &sessions[i]
		n := len(s.Readings)
		if n == 0 || len(s.WarnLines) != n || len(s.PauseLines) != n {
			continue
		}
		at := 0
		for j, r := range s.Readings {
			if r > s.Readings[at] {
				at = j
			}
		}
		warns, pauses = append(warns, s.WarnLines[at]), append(pauses, s.PauseLines[at])
	}
	if len(warns) == 0 {
		return fallback, "as the hook starts a session, before pricing moves them"
	}
	ls := fallback
	ls.Warn.Tokens, ls.Pause.Tokens = median(warns), median(pauses)
	if len(warns) == 1 {
		return ls, "the session's own, at its peak"
	}
	return ls, fmt.Sprintf("the median of the %d sessions' own lines, each at its peak", len(warns))
}

func median(v []int64) int64 {
	s := append([]int64(nil), v...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// sessionChart draws one session: its reading over its requests, the warn
// and pause lines in force, its window's compaction point (compactsAt, 0
// for none known), the notices and the compactions.
func sessionChart(s *replay.Session, fallback lines.Lines, compactsAt int64) ([]byte, error) {
	p := plot.New()
	p.X.Label.Text = "request (the session's own responses)"
	p.Y.Label.Text = "context (tokens)"
	p.Y.Tick.Marker = kTicks{}
	p.X.Tick.Marker = intTicks{}
	leg := plot.NewLegend()
	leg.Top, leg.Left = true, true

	n := len(s.Readings)
	top := float64(s.Peak)
	warn, pause := s.WarnLines, s.PauseLines
	if len(warn) != n || len(pause) != n {
		warn, pause = constant(fallback.Warn.Tokens, n), constant(fallback.Pause.Tokens, n)
	}
	for i := range n {
		top = max(top, float64(pause[i]))
	}
	// The compaction point is drawn when it is near enough to matter: a
	// 1M window's would flatten a session that never came close.
	showCompact := compactsAt > 0 && float64(compactsAt) <= 1.5*top
	if showCompact {
		top = max(top, float64(compactsAt))
	}
	top *= 1.08

	readingLine, err := plotter.NewLine(bucket(s.Readings))
	if err != nil {
		return nil, err
	}
	readingLine.Color = readingColor
	readingLine.Width = vg.Points(1.5)

	warnLine, err := plotter.NewLine(extend(bucket(warn), n))
	if err != nil {
		return nil, err
	}
	warnLine.Color, warnLine.Dashes = warnColor, []vg.Length{vg.Points(5), vg.Points(3)}
	warnLine.StepStyle = plotter.PostStep
	pauseLine, err := plotter.NewLine(extend(bucket(pause), n))
	if err != nil {
		return nil, err
	}
	pauseLine.Color, pauseLine.Dashes = pauseColor, []vg.Length{vg.Points(5), vg.Points(3)}
	pauseLine.StepStyle = plotter.PostStep
	p.Add(plotter.NewGrid(), warnLine, pauseLine, readingLine)
	leg.Add("reading", readingLine)
	if n <= 30 {
		// Few requests: mark each one, a lone reading has no line.
		dots, err := plotter.NewScatter(bucket(s.Readings))
		if err != nil {
			return nil, err
		}
		dots.GlyphStyle = draw.GlyphStyle{Shape: draw.CircleGlyph{}, Radius: vg.Points(2.5), Color: readingColor}
		p.Add(dots)
	}
	leg.Add("warn line", warnLine)
	leg.Add("pause line", pauseLine)
	if showCompact {
		cl, err := plotter.NewLine(plotter.XYs{{X: -1e9, Y: float64(compactsAt)}, {X: 1e9, Y: float64(compactsAt)}})
		if err != nil {
			return nil, err
		}
		cl.Color, cl.Width = compactColor, vg.Points(1)
		cl.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
		p.Add(cl)
		leg.Add("compacts here", cl)
	}

	for i, kind := range []string{"compact", "microcompact"} {
		var added bool
		for _, b := range s.Boundaries {
			if b.Kind != kind {
				continue
			}
			x := float64(b.AfterResponse) + 0.5
			l, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: top}})
			if err != nil {
				return nil, err
			}
			l.Color = []color.Color{compactColor, microColor}[i]
			l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
			p.Add(l)
			if !added {
				leg.Add(kind+"ion", l)
				added = true
			}
		}
	}

	for _, level := range []string{"warn", "pause"} {
		var pts plotter.XYs
		for _, nt := range s.Notices {
			if nt.Level == level {
				pts = append(pts, plotter.XY{X: float64(nt.Response), Y: float64(nt.Reading)})
			}
		}
		if len(pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Shape: draw.PyramidGlyph{}, Radius: vg.Points(5), Color: warnColor}
		if level == "pause" {
			sc.GlyphStyle = draw.GlyphStyle{Shape: draw.BoxGlyph{}, Radius: vg.Points(4.5), Color: pauseColor}
		}
		p.Add(sc)
		leg.Add(level+" notice", sc)
	}

	// A margin on both sides, so that a marker on the first or the last
	// request is drawn whole.
	span := math.Max(float64(n-1), 1)
	p.X.Min, p.X.Max = -0.02*span, span*1.02
	p.Y.Min, p.Y.Max = 0, math.Max(top, 1)
	return render(p, leg, 9*vg.Inch, 3.2*vg.Inch)
}

// peaksChart draws the distribution of the sessions' peaks against the
// lines.
func peaksChart(sessions []replay.Session, ls lines.Lines) ([]byte, error) {
	var peaks plotter.Values
	for i := range sessions {
		if sessions[i].Responses > 0 {
			peaks = append(peaks, float64(sessions[i].Peak))
		}
	}
	p := plot.New()
	p.X.Label.Text = "peak context of a session (tokens)"
	p.Y.Label.Text = "sessions"
	p.Y.Tick.Marker = intTicks{}
	p.X.Tick.Marker = kTicks{}
	leg := plot.NewLegend()
	leg.Top, leg.Left = true, true
	hi := math.Max(float64(ls.Pause.Tokens), 1) * 1.1
	for _, v := range peaks {
		hi = math.Max(hi, v*1.02)
	}
	ymax := 1.0
	if len(peaks) > 0 {
		h, err := plotter.NewHist(peaks, 1)
		if err != nil {
			return nil, err
		}
		// Bins of a fixed width from zero, not over the peaks' own range:
		// peaks close together would otherwise draw as slivers.
		// 10k tokens a bin, wider only past 60 bins.
		h.Width = max(10_000, math.Ceil(hi/60/1000)*1000)
		h.Bins = make([]plotter.HistogramBin, int(math.Ceil(hi/h.Width)))
		for i := range h.Bins {
			h.Bins[i].Min, h.Bins[i].Max = float64(i)*h.Width, float64(i+1)*h.Width
		}
		for _, v := range peaks {
			if i := int(v / h.Width); i >= 0 && i < len(h.Bins) {
				h.Bins[i].Weight++
			}
		}
		h.FillColor = readingColor
		h.LineStyle.Color = color.White
		for _, b := range h.Bins {
			ymax = math.Max(ymax, b.Weight)
		}
		p.Add(h)
		leg.Add("sessions", h)
	}
	ymax *= 1.15
	for _, v := range []struct {
		name string
		l    lines.Line
		c    color.Color
	}{{"warn", ls.Warn, warnColor}, {"pause", ls.Pause, pauseColor}} {
		l, err := plotter.NewLine(plotter.XYs{{X: float64(v.l.Tokens), Y: 0}, {X: float64(v.l.Tokens), Y: ymax}})
		if err != nil {
			return nil, err
		}
		l.Color, l.Width = v.c, vg.Points(2)
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		p.Add(l)
		leg.Add(v.name+" line", l)
	}
	p.Y.Min, p.Y.Max = 0, ymax
	// Half a bin of room past the last one, so that its bar is not drawn
	// against the edge.
	p.X.Min, p.X.Max = 0, hi*1.03
	return render(p, leg, 9*vg.Inch, 3.2*vg.Inch)
}

// legendWidth is the room at the right of a chart for its legend, which
// would otherwise hide data.
const legendWidth = 1.8 * vg.Inch

// render draws p as an SVG element, with its legend at its right, without
// the XML prologue, to inline in the page.
func render(p *plot.Plot, leg plot.Legend, w, h vg.Length) ([]byte, error) {
	c := vgsvg.New(w, h)
	dc := draw.New(c)
	p.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
	leg.Draw(draw.Crop(dc, w-legendWidth+vg.Points(10), 0, 0, -vg.Points(6)))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	out := b.Bytes()
	if i := bytes.Index(out, []byte("<svg")); i >= 0 {
		out = out[i:]
	}
	return out, nil
}

// extend carries a line's last value to the chart's right edge, so that
// a line in force at a session's only request still shows.
func extend(pts plotter.XYs, n int) plotter.XYs {
	last := pts[len(pts)-1]
	return append(pts, plotter.XY{X: math.Max(float64(n-1), 1), Y: last.Y})
}

func constant(v int64, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// bucket turns a series into points, at most maxPoints of them, each
// bucket keeping its highest value.
func bucket(ys []int64) plotter.XYs {
	n := len(ys)
	if n == 0 {
		return plotter.XYs{{X: 0, Y: 0}}
	}
	if n <= maxPoints {
		pts := make(plotter.XYs, n)
		for i, y := range ys {
			pts[i] = plotter.XY{X: float64(i), Y: float64(y)}
		}
		return pts
	}
	pts := make(plotter.XYs, 0, maxPoints)
	for b := range maxPoints {
		lo, hi := b*n/maxPoints, (b+1)*n/maxPoints
		top, at := ys[lo], lo
		for i := lo; i < hi; i++ {
			if ys[i] > top {
				top, at = ys[i], i
			}
		}
		pts = append(pts, plotter.XY{X: float64(at), Y: float64(top)})
	}
	return pts
}

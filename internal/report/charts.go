package report

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// style is how one thing a chart draws looks: a colour, a dash pattern
// (none: solid) and a width, or a marker shape. Each chart's key draws
// the same styles, so that each is told apart by colour and by pattern
// both.
type style struct {
	Name   string
	Color  color.RGBA
	Dashes []float64 // points on, off, …
	Width  float64
	Marker string // "triangle", "square" or "" for a line
}

// The styles, in the key's order.
var (
	readingStyle = style{"reading", rgb(0x1f5fbf), nil, 2, ""}
	warnStyle    = style{"warn line", rgb(0xe08a00), []float64{7, 4}, 1.6, ""}
	pauseStyle   = style{"pause line", rgb(0xc01c28), []float64{9, 3, 2, 3}, 1.6, ""}
	pointStyle   = style{"compaction point", rgb(0x7b2fa8), []float64{1.5, 3}, 1.6, ""}
	compactStyle = style{"compaction", rgb(0x222222), nil, 1, ""}
	microStyle   = style{"microcompaction", rgb(0x8a8a8a), []float64{3, 3}, 1, ""}
	relayStyle   = style{"relay (chain)", rgb(0x1a8f3a), []float64{12, 3}, 2.2, ""}
	warnMark     = style{"warn notice", rgb(0xe08a00), nil, 0, "triangle"}
	pauseMark    = style{"pause notice", rgb(0xc01c28), nil, 0, "square"}
)

// styles is the key.
var styles = []style{readingStyle, warnStyle, pauseStyle, pointStyle, compactStyle, microStyle, relayStyle, warnMark, pauseMark}

func rgb(v uint32) color.RGBA {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

func (s style) lineStyle() draw.LineStyle {
	ls := draw.LineStyle{Color: s.Color, Width: vg.Points(s.Width)}
	for _, d := range s.Dashes {
		ls.Dashes = append(ls.Dashes, vg.Points(d))
	}
	return ls
}

func (s style) glyph() draw.GlyphStyle {
	if s.Marker == "square" {
		return draw.GlyphStyle{Shape: draw.BoxGlyph{}, Radius: vg.Points(4.5), Color: s.Color}
	}
	return draw.GlyphStyle{Shape: draw.PyramidGlyph{}, Radius: vg.Points(5), Color: s.Color}
}

// The key sits above each chart's plot, in the chart's own SVG, so it
// scales with the chart and is never cut off by a narrow window: rows
// keyRow units apart, each entry a sample keySample units wide and its
// name, an entry's width reckoned at keyChar units a character of the
// name. The chart's plot is chartWidth by chartHeight units (the points
// of gonum's canvas) below it. The browser test measures the key's box
// against the chart's viewBox.
const (
	chartWidth  = 648
	chartHeight = 216
	keyRow      = 16
	keyTop      = 6
	keySample   = 28
	keyChar     = 6.2
	keyGap      = 18
)

// sample draws a style as the key shows it, keySample by 10 units from
// the origin: a short line, or the marker.
func (s style) sample() string {
	c := fmt.Sprintf("#%02x%02x%02x", s.Color.R, s.Color.G, s.Color.B)
	switch s.Marker {
	case "square":
		return `<rect class="sample" x="9.5" y="0.5" width="9" height="9" fill="` + c + `"/>`
	case "triangle":
		return `<polygon class="sample" points="14,0 19.5,10 8.5,10" fill="` + c + `"/>`
	}
	dash := ""
	if len(s.Dashes) > 0 {
		var parts []string
		for _, d := range s.Dashes {
			parts = append(parts, fmt.Sprintf("%g", d))
		}
		dash = ` stroke-dasharray="` + strings.Join(parts, " ") + `"`
	}
	return fmt.Sprintf(`<line class="sample" x1="0" y1="5" x2="%d" y2="5" stroke="%s" stroke-width="%g"%s/>`, keySample, c, s.Width, dash)
}

// key draws the chart's key, every style in rows that fit the chart's
// width, and returns it with its height.
func key() (string, int) {
	var b strings.Builder
	b.WriteString(`<g class="key" font-size="11" fill="#222">`)
	x, y := 4.0, keyTop
	for _, s := range styles {
		w := keySample + 6 + keyChar*float64(len(s.Name))
		if x+w > chartWidth {
			x, y = 4, y+keyRow
		}
		fmt.Fprintf(&b, `<g class="k" transform="translate(%g,%d)">%s<text x="%d" y="9.5">%s</text></g>`,
			x, y, s.sample(), keySample+6, template.HTMLEscapeString(s.Name))
		x += w + keyGap
	}
	b.WriteString(`</g>`)
	return b.String(), y + keyRow + 4
}

// maxPoints bounds the points of one chart: a long session is bucketed,
// keeping each bucket's highest reading, so its peaks stay visible.
const maxPoints = 1500

// ticks marks an axis at a round step, about every eighth of its span,
// each labelled by label: enough marks (and grid lines) to read a
// value off the chart.
type ticks struct{ label func(v float64) string }

func (t ticks) Ticks(lo, hi float64) []plot.Tick {
	step := roundStep((hi - lo) / 8)
	var ts []plot.Tick
	for i := math.Ceil(lo / step); i*step <= hi; i++ {
		v := i * step
		if v == 0 {
			v = 0 // not -0, which reads "-0"
		}
		ts = append(ts, plot.Tick{Value: v, Label: t.label(v)})
	}
	return ts
}

// roundStep is the least of 1, 2, 2.5 and 5 times a power of ten that is
// at least v (v > 0), and 1 for less.
func roundStep(v float64) float64 {
	if v <= 1 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= v*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// kTicks labels a token axis in thousands ("125k", "2.5k").
var kTicks = ticks{func(v float64) string { return strconv.FormatFloat(v/1000, 'f', -1, 64) + "k" }}

// countTicks labels an axis of requests.
var countTicks = ticks{func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }}

// chart draws an item: the readings of its sessions, one after the other
// (a chain's in their places, a relay line between two), with the lines
// and the compaction point the hook used after each response, the
// compactions and the notices.
func chart(it *item) (template.HTML, error) {
	p := plot.New()
	p.X.Label.Text = "request (the sessions' own responses)"
	p.Y.Label.Text = "context (tokens)"
	p.Y.Tick.Marker = kTicks
	p.X.Tick.Marker = countTicks
	var reads, warns, pauses, points plotter.XYs
	var top float64
	offset := 0
	add := func(pts *plotter.XYs, x int, y int64) {
		*pts = append(*pts, plotter.XY{X: float64(x), Y: float64(y)})
		top = max(top, float64(y))
	}
	// A line drawn; a vertical one reaches top, known at the end.
	type line struct {
		pts  plotter.XYs
		s    style
		step bool
	}
	var vertical []line
	upright := func(x float64, s style) { vertical = append(vertical, line{plotter.XYs{{X: x}, {X: x}}, s, false}) }
	marks := map[string]plotter.XYs{}
	for k, s := range it.Sessions {
		if k > 0 {
			upright(float64(offset)-0.5, relayStyle)
		}
		n := len(s.Readings)
		step := max(1, n/maxPoints)
		for i := 0; i < n; i += step {
			at := i
			for j := i; j < min(i+step, n); j++ {
				if s.Readings[j] > s.Readings[at] {
					at = j
				}
			}
			add(&reads, offset+at, s.Readings[at])
			if len(s.WarnLines) == n {
				add(&warns, offset+at, s.WarnLines[at])
				add(&pauses, offset+at, s.PauseLines[at])
			}
			if len(s.CompactPoints) == n && s.CompactPoints[at] > 0 && float64(s.CompactPoints[at]) <= 1.5*float64(s.Peak) {
				add(&points, offset+at, s.CompactPoints[at])
			}
		}
		for _, b := range s.Boundaries {
			st := compactStyle
			if b.Kind == "microcompact" {
				st = microStyle
			}
			upright(float64(offset+b.AfterResponse)+0.5, st)
		}
		for _, nt := range s.Notices {
			marks[nt.Level] = append(marks[nt.Level], plotter.XY{X: float64(offset + nt.Response), Y: float64(nt.Reading)})
		}
		offset += n
	}
	top = max(top*1.08, 1)
	p.Add(plotter.NewGrid())
	for _, v := range vertical {
		v.pts[1].Y = top
	}
	for _, ln := range append(vertical, line{warns, warnStyle, true}, line{pauses, pauseStyle, true},
		line{points, pointStyle, true}, line{reads, readingStyle, false}) {
		if len(ln.pts) == 0 {
			continue
		}
		l, err := plotter.NewLine(ln.pts)
		if err != nil {
			return "", err
		}
		l.LineStyle = ln.s.lineStyle()
		if ln.step {
			l.StepStyle = plotter.PostStep
		}
		p.Add(l)
	}
	for level, s := range map[string]style{"warn": warnMark, "pause": pauseMark} {
		if len(marks[level]) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(marks[level])
		if err != nil {
			return "", err
		}
		sc.GlyphStyle = s.glyph()
		p.Add(sc)
	}
	span := math.Max(float64(offset-1), 1)
	p.X.Min, p.X.Max = -0.02*span, span*1.02
	p.Y.Min, p.Y.Max = 0, top
	c := vgsvg.New(chartWidth, chartHeight)
	p.Draw(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return "", err
	}
	// gonum's drawing, without its own <svg> element, below the key in
	// one SVG that scales as a whole.
	out := b.Bytes()
	if i := bytes.Index(out, []byte("<svg")); i >= 0 {
		out = out[i:]
	}
	if i := bytes.IndexByte(out, '>'); i >= 0 {
		out = out[i+1:]
	}
	out = bytes.TrimSpace(out)
	out = bytes.TrimSuffix(out, []byte("</svg>"))
	k, kh := key()
	return template.HTML(fmt.Sprintf(`<svg class="chart" viewBox="0 0 %d %d" xmlns="http://www.w3.org/2000/svg" role="img">%s<g transform="translate(0,%d)">%s</g></svg>`,
		chartWidth, chartHeight+kh, k, kh, out)), nil
}

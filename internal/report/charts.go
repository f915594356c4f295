package report

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// style is how one thing a chart draws looks: a colour, a dash pattern
// (none: solid) and a width, or a marker shape. The page's key draws the
// same styles, so that each is told apart by colour and by pattern both.
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

// KeySample draws a style as the key shows it: a short line, or the
// marker, 40 by 12 pixels.
func (s style) KeySample() template.HTML {
	c := fmt.Sprintf("#%02x%02x%02x", s.Color.R, s.Color.G, s.Color.B)
	var shape string
	switch s.Marker {
	case "square":
		shape = `<rect x="15" y="1" width="10" height="10" fill="` + c + `"/>`
	case "triangle":
		shape = `<polygon points="20,0 26,11 14,11" fill="` + c + `"/>`
	default:
		dash := ""
		if len(s.Dashes) > 0 {
			var parts []string
			for _, d := range s.Dashes {
				parts = append(parts, fmt.Sprintf("%g", d*4/3))
			}
			dash = ` stroke-dasharray="` + strings.Join(parts, " ") + `"`
		}
		shape = fmt.Sprintf(`<line x1="0" y1="6" x2="40" y2="6" stroke="%s" stroke-width="%g"%s/>`, c, s.Width*4/3, dash)
	}
	return template.HTML(`<svg width="40" height="12" viewBox="0 0 40 12">` + shape + `</svg>`)
}

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
		}
	}
	return ts
}

// chart draws an item: the readings of its sessions, one after the other
// (a chain's in their places, a relay line between two), with the lines
// and the compaction point the hook used after each response, the
// compactions and the notices.
func chart(it *item) (template.HTML, error) {
	p := plot.New()
	p.X.Label.Text = "request (the sessions' own responses)"
	p.Y.Label.Text = "context (tokens)"
	p.Y.Tick.Marker = kTicks{}
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
	c := vgsvg.New(9*vg.Inch, 3*vg.Inch)
	p.Draw(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return "", err
	}
	out := b.Bytes()
	if i := bytes.Index(out, []byte("<svg")); i >= 0 {
		out = out[i:]
	}
	return template.HTML(out), nil
}

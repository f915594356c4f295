// Package report draws a replay as one self-contained HTML page: the
// totals, the distribution of the sessions' peaks against the lines, and
// per session a chart of its reading over its requests with the lines,
// the notices and the compactions marked. The charts are inline <svg>
// elements drawn with gonum.org/v1/plot; the page loads nothing from the
// network.
//
// The plotting library costs package initialisation time, so this package
// is linked only into context-budget-report, never into the hook's binary.
package report

import (
	"fmt"
	"html/template"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"

	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/replay"
)

// page is what the template draws.
type page struct {
	Totals    replay.Totals
	Lines     string
	Peaks     template.HTML
	Sessions  []sessionView
	Unplotted int
}

type sessionView struct {
	*replay.Session
	Chart   template.HTML
	Notices string
	Pauses  string
}

// Render writes the HTML report of rep to w. Sessions with no response
// are counted but not plotted.
func Render(w io.Writer, rep replay.Report) error {
	// Sans-serif text, like the page around the charts.
	plot.DefaultFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
	pg := page{Totals: rep.Totals,
		Lines: fmt.Sprintf("warn line %s (%s), pause line %s (%s)", notice.K(rep.Lines.Warn.Tokens), rep.Lines.Warn.SetBy,
			notice.K(rep.Lines.Pause.Tokens), rep.Lines.Pause.SetBy)}
	peaks, err := peaksChart(rep.Sessions, rep.Lines)
	if err != nil {
		return err
	}
	pg.Peaks = template.HTML(peaks)
	for i := range rep.Sessions {
		s := &rep.Sessions[i]
		if s.Responses == 0 || len(s.Readings) == 0 {
			pg.Unplotted++
			continue
		}
		chart, err := sessionChart(s, rep.Lines)
		if err != nil {
			return fmt.Errorf("session %s: %w", s.SessionID, err)
		}
		pg.Sessions = append(pg.Sessions, sessionView{Session: s, Chart: template.HTML(chart),
			Notices: describeNotices(s), Pauses: describePauses(s)})
	}
	return pageTemplate.Execute(w, pg)
}

func describeNotices(s *replay.Session) string {
	if len(s.Notices) == 0 {
		return "no notice"
	}
	out := ""
	for i, n := range s.Notices {
		if i > 0 {
			out += "; "
		}
		out += fmt.Sprintf("%s after response %d at %s (line %s, %s)", n.Level, n.Response, notice.K(n.Reading), notice.K(n.Line), n.SetBy)
	}
	return out
}

func describePauses(s *replay.Session) string {
	out := ""
	for i, p := range s.Pauses {
		if i > 0 {
			out += "; "
		}
		out += fmt.Sprintf("pause at response %d: relaying saves %s; carrying on predicted %s, actual %s",
			p.Response, usd(p.SavingUSD), usd(p.PredictedCarryOnUSD), usd(p.ActualCarryOnUSD))
	}
	return out
}

func usd(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return notice.USD(*v)
}

func pct(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.0f%%", *v*100)
}

var pageTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"k":     notice.K,
	"usd":   usd,
	"pct":   pct,
	"pctOf": func(v float64) string { return pct(&v) },
	"mb":    func(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/1e6) },
}).Parse(pageHTML))

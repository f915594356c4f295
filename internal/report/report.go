// Package report draws a replay as one self-contained HTML page that
// answers "what would this have saved me?": what the sessions cost, what
// relaying at the pauses would have saved, the distribution of the
// sessions' peaks against their lines, and per session (named by its date,
// branch and opening prompt) a chart of its reading over its requests with
// its own lines, its window's compaction point, the notices and the
// compactions. Sessions of a few responses are listed, not charted. The
// charts are inline <svg> elements drawn with gonum.org/v1/plot; the page
// loads nothing from the network.
//
// The plotting library costs package initialisation time, so this package
// is linked only into context-budget-report, never into the hook's binary.
package report

import (
	"fmt"
	"html/template"
	"io"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"

	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/replay"
	"github.com/muthur/context-budget/internal/window"
)

// trivialResponses: a session with fewer responses is listed, not
// charted; a chart of a handful of points says nothing a row does not.
const trivialResponses = 10

// page is what the template draws.
type page struct {
	Totals replay.Totals
	// Fuse is the spend fuse's replay, when asked for.
	Fuse *fuse.Summary
	// Money is the page's answer: spent, and saved by relaying.
	Money    money
	Lines    string
	Peaks    template.HTML
	Sessions []sessionView
	// Short are the sessions listed, not charted: fewer than ShortUnder
	// responses.
	Short      []sessionView
	ShortUnder int
	Unplotted  int
	// Dates is the span of the sessions' dates, "" when unknown.
	Dates string
}

// money sums what the sessions cost and what relaying would have saved.
type money struct {
	// Spent is over the sessions with a price; SpentSessions counts them.
	Spent         float64
	SpentSessions int
	// Forecast is the sum of the forecast savings at the pauses, over
	// Pauses pauses that were priced.
	Forecast float64
	Pauses   int
	// Measured is the saving by what carrying on really cost, over
	// MeasuredPauses pauses where the session went on 100k tokens.
	Measured       float64
	MeasuredPauses int
	// ColdRewrites is left for the cold cache re-writes' dollars, once
	// replay measures them; "" hides the row.
	ColdRewrites string
}

type sessionView struct {
	*replay.Session
	About   replay.About
	Title   string
	Chart   template.HTML
	Notices []string
	// NoticeSummary is "3 notices: 2 warnings, 1 pause".
	NoticeSummary string
	// Saving says what relaying at the session's pauses would have saved.
	Saving string
	// Room says, for each compaction, the room the climb's pause left.
	Room string
	// Cold says what the session's cold re-writes cost.
	Cold string
}

// Render writes the HTML report of rep to w, with nothing known of the
// sessions beyond the replay.
func Render(w io.Writer, rep replay.Report) error {
	return RenderInput(w, replay.ReportInput{Report: rep})
}

// RenderInput writes the HTML report of in to w. Sessions with no
// response are counted but not shown; sessions of a few responses are
// listed without a chart.
func RenderInput(w io.Writer, in replay.ReportInput) error {
	rep := in.Report
	// Sans-serif text, like the page around the charts.
	plot.DefaultFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
	ls, linesFrom := sessionLines(rep.Sessions, rep.Lines)
	pg := page{Totals: rep.Totals, Fuse: rep.Fuse, ShortUnder: trivialResponses,
		Lines: fmt.Sprintf("warn line %s, pause line %s (%s)", notice.K(ls.Warn.Tokens), notice.K(ls.Pause.Tokens), linesFrom)}
	peaks, err := peaksChart(rep.Sessions, ls)
	if err != nil {
		return err
	}
	pg.Peaks = template.HTML(peaks)
	var first, last string
	for i := range rep.Sessions {
		s := &rep.Sessions[i]
		if s.Responses == 0 || len(s.Readings) == 0 {
			pg.Unplotted++
			continue
		}
		a := in.About[s.Path]
		if a.SpentUSD != nil {
			pg.Money.Spent += *a.SpentUSD
			pg.Money.SpentSessions++
		}
		if a.Date != "" {
			if first == "" || a.Date < first {
				first = a.Date
			}
			last = max(last, a.Date)
		}
		v := sessionView{Session: s, About: a, Title: title(s, a), Notices: describeNotices(s),
			NoticeSummary: noticeSummary(s)}
		v.Saving = pg.Money.addPauses(s)
		v.Room = describeRooms(s)
		v.Cold = describeCold(s)
		if s.Responses < trivialResponses {
			pg.Short = append(pg.Short, v)
			continue
		}
		chart, err := sessionChart(s, rep.Lines, a.CompactsAt)
		if err != nil {
			return fmt.Errorf("session %s: %w", s.SessionID, err)
		}
		v.Chart = template.HTML(chart)
		pg.Sessions = append(pg.Sessions, v)
	}
	switch {
	case first != "" && first != last:
		pg.Dates = first + " to " + last
	case first != "":
		pg.Dates = first
	}
	// Newest first: the sessions a person remembers.
	for _, list := range [][]sessionView{pg.Sessions, pg.Short} {
		sort.SliceStable(list, func(i, j int) bool { return list[i].About.Date > list[j].About.Date })
	}
	return pageTemplate.Execute(w, pg)
}

// addPauses adds a session's pauses to the sums and says in words what
// relaying there would have saved.
func (m *money) addPauses(s *replay.Session) string {
	var forecast, measured float64
	priced, known := 0, 0
	for _, p := range s.Pauses {
		if p.SavingUSD == nil {
			continue
		}
		forecast += *p.SavingUSD
		priced++
		if p.ActualCarryOnUSD != nil && p.PredictedCarryOnUSD != nil {
			// Relaying costs what the forecast said (carrying on less the
			// saving); carrying on cost what the session really spent.
			measured += *p.SavingUSD + *p.ActualCarryOnUSD - *p.PredictedCarryOnUSD
			known++
		}
	}
	m.Forecast += forecast
	m.Pauses += priced
	m.Measured += measured
	m.MeasuredPauses += known
	if priced == 0 {
		if len(s.Pauses) > 0 {
			return "The pause was not priced (a model the price table does not have)."
		}
		return ""
	}
	where := "its pause"
	if priced > 1 {
		where = fmt.Sprintf("its %d pauses", priced)
	}
	out := fmt.Sprintf("Relaying at %s was forecast to %s over the next 100k tokens", where, saveWords(forecast))
	if known > 0 {
		out += fmt.Sprintf("; by what carrying on really cost, to %s", saveWords(measured))
	}
	return out + "."
}

// saveWords is a saving in words: "save $0.81", or "cost $0.46 more than
// carrying on" when it is negative.
func saveWords(v float64) string {
	if v < 0 {
		return "cost " + notice.USD(-v) + " more than carrying on"
	}
	return "save " + notice.USD(v)
}

// title names a session for a person: its date, branch and opening
// prompt, as its ledger row has them; the id when nothing else is known.
func title(s *replay.Session, a replay.About) string {
	t := ""
	for _, part := range []string{a.Date, a.Branch} {
		if part != "" {
			if t != "" {
				t += " · "
			}
			t += part
		}
	}
	if a.OpeningPrompt != "" {
		if t != "" {
			t += " · "
		}
		t += "“" + clip(a.OpeningPrompt, 90) + "”"
	}
	if t == "" {
		t = s.SessionID
	}
	return t
}

// clip cuts s to n characters, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func noticeSummary(s *replay.Session) string {
	w, p := 0, 0
	for _, n := range s.Notices {
		if n.Level == "pause" {
			p++
		} else {
			w++
		}
	}
	switch len(s.Notices) {
	case 0:
		return "no notice"
	case 1:
		return "1 notice: a " + map[bool]string{true: "pause", false: "warning"}[p == 1]
	}
	return fmt.Sprintf("%d notices: %s, %s", len(s.Notices), plural(w, "warning"), plural(p, "pause"))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func describeNotices(s *replay.Session) []string {
	var out []string
	pauses := map[int]replay.Pause{}
	for _, p := range s.Pauses {
		pauses[p.Response] = p
	}
	for _, n := range s.Notices {
		level := "warning"
		if n.Level == "pause" {
			level = "pause"
		}
		line := fmt.Sprintf("%s after response %d at %s (the line at %s, %s)", level, n.Response, notice.K(n.Reading), notice.K(n.Line), setWords(string(n.SetBy)))
		if p, ok := pauses[n.Response]; ok && n.Level == "pause" {
			line += fmt.Sprintf(": relaying saves %s; carrying on forecast %s, really %s", usd(p.SavingUSD), usd(p.PredictedCarryOnUSD), usd(p.ActualCarryOnUSD))
			if p.PredictedCompactUSD != nil {
				line += "; letting Claude Code compact forecast " + usd(p.PredictedCompactUSD)
			}
			if p.Cheapest != "" {
				line += "; cheapest: " + p.Cheapest
			}
		}
		out = append(out, line)
	}
	return out
}

// describeRooms says, for each compaction, the room the climb's pause
// left before it.
func describeRooms(s *replay.Session) string {
	out := ""
	for i, r := range s.Rooms {
		if i > 0 {
			out += "; "
		}
		out += fmt.Sprintf("%s compaction at %s: ", r.Trigger, notice.K(r.PreTokens))
		if !r.Paused {
			out += "no pause in its climb"
			continue
		}
		out += fmt.Sprintf("the pause at %s left %s tokens in %d responses", notice.K(r.PauseReading), notice.K(r.Tokens), r.Responses)
		if r.Tokens < window.EnoughRoom {
			out += " (less than 20k)"
		}
	}
	return out
}

// setWords names what set a line in a few words.
func setWords(s string) string {
	switch s {
	case "priced":
		return "priced"
	case "env":
		return "fixed in the environment"
	case "window":
		return "kept clear of the compaction point"
	}
	return "the cap"
}

func usd(v *float64) string {
	if v == nil {
		return "not known"
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
	"usdv":  notice.USD,
	"save":  saveWords,
	"pct":   pct,
	"mb":    func(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/1e6) },
	"spent": func(v *float64) string { return usd(v) },
	"cold":  coldTotals,
	"pctOf": func(v float64) string { return pct(&v) },
}).Parse(pageHTML))

// Package report draws a replay as one self-contained HTML page that
// answers one question plainly: what these sessions cost, what relaying
// at the pauses would have saved by the forecast, and — apart, with its
// own count — what the pauses the sessions went on past let us check.
// Sessions are grouped by project, most costly first; a relay chain (its
// sessions' ledger rows name it) is one entry. The first few entries of a
// project are charted — the readings with the lines, the compaction
// point the hook used, the compactions and the notices, in styles the
// page's key tells apart by colour and pattern — and the rest listed.
// The charts are inline <svg> drawn with gonum.org/v1/plot; the page
// loads nothing from the network.
//
// The plotting library costs package initialisation time, so this package
// is linked only into context-budget-report, never into the hook's binary.
package report

import (
	"cmp"
	"fmt"
	"html/template"
	"io"
	"os"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"

	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/replay"
)

// Charting limits: a project charts its first ChartsPerProject entries,
// the page at most MaxCharts, and an entry of fewer than MinResponses
// responses is listed: a chart of a handful of points says nothing a row
// does not.
const (
	ChartsPerProject = 3
	MaxCharts        = 24
	MinResponses     = 10
)

// item is one entry of a project: a session, or a relay chain's sessions
// in their places.
type item struct {
	Sessions []*replay.Session
	Chain    string
	CostUSD  float64
	Chart    template.HTML
}

// project is one project's entries, most costly first. Name is as the
// replay gives it, Folder as a person reads it (replay.HomePath).
type project struct {
	Name    string
	Folder  string
	CostUSD float64
	Charted []*item
	Listed  []*item
	N       int
}

type page struct {
	T        replay.Totals
	Rep      *replay.Report
	Dates    string
	Projects []*project
}

// Render writes the HTML report of rep to w.
func Render(w io.Writer, rep replay.Report) error {
	plot.DefaultFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
	home, _ := os.UserHomeDir()
	pg := page{T: rep.Totals, Rep: &rep}
	byName := map[string]*project{}
	chains := map[string]*item{}
	var first, last string
	for i := range rep.Sessions {
		s := &rep.Sessions[i]
		if s.Responses == 0 {
			continue
		}
		if d := day(s.Started); d != "" {
			if first == "" || d < first {
				first = d
			}
			last = max(last, d)
		}
		p := byName[s.Project]
		if p == nil {
			p = &project{Name: s.Project, Folder: replay.HomePath(s.Project, home)}
			byName[s.Project] = p
			pg.Projects = append(pg.Projects, p)
		}
		cost := 0.0
		if s.CostUSD != nil {
			cost = *s.CostUSD
		}
		p.CostUSD += cost
		p.N++
		it := &item{Sessions: []*replay.Session{s}, CostUSD: cost}
		if s.Chain != "" {
			key := s.Project + "\x00" + s.Chain
			if c, ok := chains[key]; ok {
				c.Sessions = append(c.Sessions, s)
				c.CostUSD += cost
				continue
			}
			it.Chain = s.Chain
			chains[key] = it
		}
		p.Listed = append(p.Listed, it)
	}
	if first != "" {
		pg.Dates = first
		if last != first {
			pg.Dates += " to " + last
		}
	}
	slices.SortStableFunc(pg.Projects, func(a, b *project) int { return cmp.Compare(b.CostUSD, a.CostUSD) })
	charts := 0
	for _, p := range pg.Projects {
		slices.SortStableFunc(p.Listed, func(a, b *item) int { return cmp.Compare(b.CostUSD, a.CostUSD) })
		for _, it := range p.Listed {
			slices.SortStableFunc(it.Sessions, func(a, b *replay.Session) int { return cmp.Compare(a.Place, b.Place) })
		}
		var rest []*item
		for _, it := range p.Listed {
			if len(p.Charted) < ChartsPerProject && charts < MaxCharts && it.responses() >= MinResponses {
				c, err := chart(it)
				if err != nil {
					return fmt.Errorf("session %s: %w", it.Sessions[0].SessionID, err)
				}
				it.Chart = c
				p.Charted = append(p.Charted, it)
				charts++
				continue
			}
			rest = append(rest, it)
		}
		p.Listed = rest
	}
	return pageTemplate.Execute(w, pg)
}

func (it *item) responses() int {
	n := 0
	for _, s := range it.Sessions {
		n += len(s.Readings)
	}
	return n
}

// Title names the entry: a session by its day, branch and the first 8
// characters of its id; a chain by its id and its sessions'.
func (it *item) Title() string {
	s := it.Sessions[0]
	if it.Chain != "" {
		return fmt.Sprintf("chain %s: %d sessions", short(it.Chain), len(it.Sessions))
	}
	parts := []string{}
	for _, p := range []string{day(s.Started), s.Branch} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(append(parts, short(s.SessionID)), " · ")
}

// note is what the page says of one session of an entry.
type note struct {
	ID, Text string
}

// Notes are the entry's sentences, one per session: its cost and shape,
// what relaying at its pauses would have saved (by the forecast, then
// checked where it went on), and the room its pauses left.
func (it *item) Notes() []note {
	var out []note
	for _, s := range it.Sessions {
		w, p := 0, 0
		for _, n := range s.Notices {
			if n.Level == "pause" {
				p++
			} else {
				w++
			}
		}
		line := fmt.Sprintf("%s, %s, peak %s, %s, %s, %s", usd(s.CostUSD), notice.Count(s.Responses, "response"),
			notice.K(s.Peak), notice.Count(s.Compactions, "compaction"), notice.Count(w, "warning"), notice.Count(p, "pause"))
		if s.Place > 0 {
			line = fmt.Sprintf("%d. %s", s.Place, line)
		}
		if ps := replay.SumPauses(s.Pauses); ps.Priced > 0 {
			line += fmt.Sprintf(". By the forecast, relaying at its %s would have %s against the real alternative", notice.Count(ps.Priced, "pause"), notice.NetSavedWords(ps.Forecast))
			if ps.Known > 0 {
				line += fmt.Sprintf("; checked at %d where it went on 100k tokens, %s by what carrying on really cost (the forecast said %s)",
					ps.Known, notice.SavedWords(ps.Checked), notice.USD(ps.Said))
			}
		}
		for _, r := range s.Rooms {
			if r.Trigger == "auto" && r.Paused {
				line += fmt.Sprintf(". The pause at %s left %s before the compaction at %s", notice.K(r.PauseReading), notice.K(r.Tokens), notice.K(r.PreTokens))
			}
		}
		out = append(out, note{s.SessionID, line + "."})
	}
	return out
}

// Caption says what set the chart's warn and pause lines: those in force
// at each session's last tool call, in the notice's words (a chain's
// sessions said once where they agree). Priced lines follow a session's
// measured pace, so they move along the chart; the window's sit below
// where Claude Code compacts it.
func (it *item) Caption() string {
	var said []string
	priced := false
	for _, s := range it.Sessions {
		if s.Lines == nil {
			continue
		}
		at := "the window"
		if n := len(s.CompactPoints); n > 0 && s.CompactPoints[n-1] > 0 {
			at = "the window: Claude Code compacts it at ~" + notice.K(s.CompactPoints[n-1])
		}
		text := fmt.Sprintf("warn line %s (%s); pause line %s (%s)",
			notice.K(s.Lines.Warn.Tokens), notice.LineWhy(s.Lines.Warn, "warn", at),
			notice.K(s.Lines.Pause.Tokens), notice.LineWhy(s.Lines.Pause, "pause", at))
		if !slices.Contains(said, text) {
			said = append(said, text)
		}
		priced = priced || s.Lines.Warn.SetBy == lines.Priced || s.Lines.Pause.SetBy == lines.Priced
	}
	if len(said) == 0 {
		return "No tool call in this session, so the hook never decided its lines."
	}
	out := "At the last tool call: " + strings.Join(said, "; then ") + "."
	if priced {
		out += " Priced lines follow the session's measured pace, so they move."
	}
	return out
}

func usd(v *float64) string {
	if v == nil {
		return "cost not known"
	}
	return notice.USD(*v)
}

func short(id string) string { return id[:min(len(id), 8)] }

func day(t string) string {
	if len(t) >= 10 {
		return t[:10]
	}
	return ""
}

func pct(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.0f%%", *v*100)
}

var pageTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"k":     notice.K,
	"usd":   notice.USD,
	"saved": notice.SavedWords,
	"net":   notice.NetSavedWords,
	"pct":   pct,
	"pctv":  func(v float64) string { return pct(&v) },
	"count": notice.Count,
	"noun":  notice.Noun,
	"short": short,
	"counts": func(m map[string]int) string {
		var parts []string
		for _, k := range []string{lines.ChoiceRelay, lines.ChoiceCompact, lines.ChoiceCarryOn} {
			if m[k] > 0 {
				parts = append(parts, fmt.Sprintf("%s at %d", k, m[k]))
			}
		}
		return strings.Join(parts, ", ")
	},
}).Parse(pageHTML + teamHTML))

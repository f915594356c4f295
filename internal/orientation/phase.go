package orientation

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/ledger"
)

// Options tune the measure.
type Options struct {
	// Finished says the transcript's last own response ended a turn: true
	// in the Stop hook and for a past session, false mid-turn (the
	// PostToolUse hook), where the last response is still working.
	Finished bool
}

// Phases returns the session's orientation and one reorientation per
// compaction boundary, priced by p.
func Phases(s *Session, p *Pricer, o Options) (orientation ledger.Phase, compactions []ledger.Compaction) {
	m := newMeasure(s, p, o)
	orientation = m.phase(0)
	for k := 1; k < len(m.starts); k++ {
		b := m.bounds[k-1]
		compactions = append(compactions, ledger.Compaction{
			At: b.Stamp, Trigger: b.Trigger, PreTokens: b.PreTokens, Version: b.Version, Window: b.Window, Phase: m.phase(k),
		})
	}
	return orientation, compactions
}

// Orientation returns only the orientation phase.
func Orientation(s *Session, p *Pricer, o Options) ledger.Phase {
	return newMeasure(s, p, o).phase(0)
}

type measure struct {
	s    *Session
	p    *Pricer
	o    Options
	root string
	// main indexes the main file's own responses in s.Responses.
	main []int
	// starts[k] is the index in main of phase k's first response; a
	// boundary's start time is in bounds[k-1].
	starts []int
	bounds []Event
	// promptAfter[i] is true when an operator prompt follows main
	// response i before main response i+1.
	promptAfter map[int]bool
}

func newMeasure(s *Session, p *Pricer, o Options) *measure {
	m := &measure{s: s, p: p, o: o, root: s.Cwd, starts: []int{0}, promptAfter: map[int]bool{}}
	for i := range s.Responses {
		if !s.Responses[i].Sub {
			m.main = append(m.main, i)
		}
	}
	for _, e := range s.Events {
		switch {
		case e.Boundary:
			m.starts = append(m.starts, e.After)
			m.bounds = append(m.bounds, e)
		case e.After > 0:
			m.promptAfter[e.After-1] = true
		}
	}
	return m
}

func before(a, b *Response) bool {
	if !a.Time.Equal(b.Time) {
		return a.Time.Before(b.Time)
	}
	if a.File != b.File {
		return a.File < b.File
	}
	return a.Seq < b.Seq
}

// window returns phase k's main responses [lo, hi) and its time span.
func (m *measure) window(k int) (lo, hi int, from, to time.Time) {
	lo = m.starts[k]
	hi = len(m.main)
	if k+1 < len(m.starts) {
		hi = m.starts[k+1]
		to, _ = time.Parse(time.RFC3339Nano, m.bounds[k].Stamp)
	}
	if k > 0 {
		from, _ = time.Parse(time.RFC3339Nano, m.bounds[k-1].Stamp)
	}
	return lo, hi, from, to
}

func (m *measure) phase(k int) ledger.Phase {
	lo, hi, from, to := m.window(k)
	inSub := func(r *Response) bool {
		return r.Sub && (from.IsZero() || !r.Time.Before(from)) && (to.IsZero() || r.Time.Before(to))
	}
	var acting *Response
	var endedBy, endedOn string
	for j := lo; j < hi && j < len(m.main); j++ {
		r := &m.s.Responses[m.main[j]]
		if by, on, ok := m.acts(r, j); ok {
			acting, endedBy, endedOn = r, by, on
			break
		}
	}
	for i := range m.s.Responses {
		r := &m.s.Responses[i]
		if !inSub(r) || (acting != nil && !before(r, acting)) {
			continue
		}
		if by, on, ok := editInside(m.root, r.Acts); ok {
			acting, endedBy, endedOn = r, by, on
		}
	}
	var ph ledger.Phase
	if acting != nil {
		ph.EndedBy, ph.EndedOn, ph.EndedAt = endedBy, endedOn, acting.Stamp
		ph.ContextTokens = acting.Usage.Context()
	}
	add := func(r *Response) {
		if acting != nil && (r == acting || !before(r, acting)) {
			return
		}
		t, _ := m.p.Tally(r)
		ph.Spend = ph.Spend.Add(t)
	}
	for j := lo; j < hi && j < len(m.main); j++ {
		add(&m.s.Responses[m.main[j]])
	}
	for i := range m.s.Responses {
		if r := &m.s.Responses[i]; inSub(r) {
			add(r)
		}
	}
	return ph
}

// acts reports whether main response j acts, and how.
func (m *measure) acts(r *Response, j int) (by, on string, ok bool) {
	if by, on, ok := ownAct(m.root, r.StopReason, r.Acts); ok {
		return by, on, true
	}
	if r.StopReason == "" && (m.promptAfter[j] || (m.o.Finished && j == len(m.main)-1)) {
		return transcript.EndTurn, "", true
	}
	return "", "", false
}

// Inside reports whether path is a file inside root and not under its
// tmp/ folder, and returns it relative to root. A relative path is taken
// relative to root; with no root nothing is inside.
func Inside(root, path string) (string, bool) {
	if root == "" || path == "" {
		return "", false
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, path)
	}
	rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(path))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if rel == "tmp" || strings.HasPrefix(rel, "tmp/") {
		return "", false
	}
	return rel, true
}

// Relayed reports whether the session was started by a /relay.
func Relayed(s *Session) bool {
	return ledger.IsRelay(s.OpeningPrompt)
}

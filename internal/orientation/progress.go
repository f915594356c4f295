package orientation

import (
	"bytes"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
)

// progress is how far a session's files were searched without a sign that
// it acted, so that a session that has not acted (yet) costs each priced
// recompute only its new bytes, not a pass over the whole transcript.
type progress struct {
	// Main is how far the main transcript was searched; Subs the same
	// for each subagent file.
	Main reading.Mark            `json:"main"`
	Subs map[string]reading.Mark `json:"subs,omitempty"`
	// Cwd is the session's root, from its first own response.
	Cwd string `json:"cwd,omitempty"`
	// Open says the main file's last own response left stop_reason empty:
	// an operator prompt after it ends the turn.
	Open bool `json:"open,omitempty"`
}

// searchSlice bounds the bytes one searchAll reads over all the session's
// files, so that no hook call pays for a whole long transcript: a session
// that has not acted within it is searched further on the next priced
// recompute (lines.PassSlice bounds the history's pass the same way,
// and with the same size: both run inside the hook's pricing deadline).
const searchSlice = 16 << 20

func (p *progress) line(line []byte, sub bool) bool {
	// Each search may run through a tool result of megabytes: search as
	// few words as the line's kind needs.
	isAssistant := bytes.Contains(line, []byte(transcript.AssistantWord))
	sign := isAssistant && transcript.MayAct(line)
	needCwd := !sub && p.Cwd == "" && isAssistant
	prompt := !sub && !isAssistant && transcript.MayHoldPrompt(line)
	if !sub && isAssistant && !sign {
		// Tracked without decoding: a stop reason written as a string
		// closes the response; null or none leaves it open.
		p.Open = !bytes.Contains(line, []byte(transcript.StopReasonStringWord))
	}
	if !sign && !needCwd && !prompt {
		return false
	}
	acted := false
	transcript.Decode(line, func(r *transcript.Record) {
		switch {
		case r.HasUsage():
			own := !sub && !r.IsSidechain
			if own && p.Cwd == "" {
				p.Cwd = r.Cwd
			}
			calls := transcript.ActingCalls(r.Message.Content)
			if own {
				p.Open = r.Message.StopReason == ""
				_, _, ok := ownAct(p.Cwd, r.Message.StopReason, calls)
				acted = acted || ok
			} else {
				_, _, ok := editInside(p.Cwd, calls)
				acted = acted || ok
			}
		case r.Type == "user" && !sub:
			if _, ok := operatorPrompt(r); ok && p.Open && p.Cwd != "" {
				acted = true
			}
		}
	})
	return acted
}

// searchAll searches the new complete lines of the main transcript and
// of every subagent file for a sign that the session acted, by the rules
// of Phases (in a subagent's file, only its edits), and reports whether
// one did. The marks advance either way; a main transcript replaced or
// truncated starts the search over.
func (p *progress) searchAll(transcriptPath string) (acted bool) {
	pass := reading.Pass{Limit: searchSlice}
	search := func(name string, m *reading.Mark, reset func(), sub bool) error {
		_, err := pass.Read(name, m, reset, func(line []byte) bool {
			if p.line(line, sub) {
				acted = true
				return false
			}
			return true
		})
		return err
	}
	search(transcriptPath, &p.Main, func() { *p = progress{} }, false)
	if p.Subs == nil {
		p.Subs = map[string]reading.Mark{}
	}
	for _, name := range transcript.SubagentFiles(transcriptPath) {
		m := p.Subs[name]
		if search(name, &m, func() {}, true) == nil {
			p.Subs[name] = m
		}
	}
	return acted
}

// Search is the search of progress over lines held in memory: replay
// feeds it the main transcript as it walks it and measures the
// orientation only after a sign, as the hook's recompute does, so that a
// session that never acts costs each recompute nothing instead of a
// pass over all it has read.
type Search struct {
	p progress
	// subs: the subagent files were searched (once the root is known);
	// subSign: they showed a sign.
	subs, subSign bool
	pending       bool
}

// Main takes the next complete line of the main transcript.
func (s *Search) Main(line []byte) {
	if s.p.line(line, false) {
		s.pending = true
	}
}

// Due reports whether a measure may now find the session acted: a sign
// came since the last call that said so, or, the first time the session's
// root is known, its subagent files beside transcriptPath (read whole, as
// the measure reads them) show one.
func (s *Search) Due(transcriptPath string) bool {
	if !s.subs && s.p.Cwd != "" {
		s.subs = true
		pass := reading.Pass{}
		for _, name := range transcript.SubagentFiles(transcriptPath) {
			var m reading.Mark
			pass.Read(name, &m, func() {}, func(line []byte) bool {
				s.subSign = s.subSign || s.p.line(line, true)
				return !s.subSign
			})
		}
		s.pending = s.pending || s.subSign
	}
	due := s.pending
	s.pending = false
	return due
}

// Again makes the next Due true: a measure that was due did not count.
func (s *Search) Again() { s.pending = true }

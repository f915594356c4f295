// Package notice writes the words the hook puts in front of the agent when
// a line is crossed (design §6). The wording is ours and short; tests pin it
// by phrases. Each notice stays well under Claude Code's 10,000-character
// cap on hook output.
package notice

import (
	"math"
	"strconv"
	"strings"

	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/lines"
)

// Facts are what a notice says.
type Facts struct {
	Level   climb.Level
	Reading int64
	Lines   lines.Lines
	// Money is set when pricing ran, whichever rule set the line.
	Money *lines.Money
	// WindowWords describes the window for a line set by it, e.g. "the 200k
	// window's compaction point (window from the default)".
	WindowWords string
	// Manual asks the agent to offer /relay instead of running it.
	Manual bool
	// Offer asks the agent to offer, once, to ask before relaying.
	Offer bool
	// SkillPrefix is how the skills are named where they are installed:
	// "" for .claude/skills/ (/relay), "context-budget:" for the plugin
	// (/context-budget:relay), the name the model's skill list shows.
	SkillPrefix string
}

// Relays reports whether the notice tells the agent to stop and relay
// (or offer /relay): always without pricing, else where the verdict's
// choice is to relay (design §4.2).
func (f Facts) Relays() bool { return f.Money == nil || f.Money.Verdict.Relays() }

// Skill names a skill as the model can see it: Skill("relay") is
// "/relay", or "/context-budget:relay" from the plugin.
func (f Facts) Skill(name string) string {
	return "/" + f.SkillPrefix + name
}

// K rounds tokens to the nearest thousand, halves up: 200,641 → "201k",
// 202,500 → "203k"; a whole number of millions is said in millions
// (1,000,000 → "1M"), as a window is. It is the program's one way to say
// tokens short: notices, the window's words, `lines`, doctor, the ledger.
func K(tokens int64) string {
	if tokens >= 1_000_000 && tokens%1_000_000 == 0 {
		return strconv.FormatInt(tokens/1_000_000, 10) + "M"
	}
	return strconv.FormatInt((tokens+500)/1000, 10) + "k"
}

// Thousands writes a count in full, its digits in groups of three:
// 169872 → "169,872". It is the program's one way to say tokens exactly,
// where K says them short.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// USD shows dollars to the cent, halves up: 5.825 → "$5.83". The cents
// are rounded with a margin of a millionth of a cent, so that a half that
// binary floating point stores a hair below (5.825 is 5.82499…) still
// rounds up.
func USD(v float64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	cents := int64(math.Floor(v*100 + 0.5 + 1e-6))
	c := strconv.FormatInt(cents%100, 10)
	if len(c) < 2 {
		c = "0" + c
	}
	return sign + "$" + strconv.FormatInt(cents/100, 10) + "." + c
}

// LineWhy says what set a line, in the words the notice uses; name is
// the line's ("warn", "pause"), windowWords describes the window for a
// line it set (WindowWords).
func LineWhy(l lines.Line, name, windowWords string) string {
	switch l.SetBy {
	case lines.Priced:
		return "priced: where relaying saves enough to " + name
	case lines.Env:
		return "set in the environment by MUTHUR_CONTEXT_BUDGET_" + strings.ToUpper(name)
	case lines.Window:
		return "set by " + windowWords
	}
	return "the fixed cap"
}

// Text returns the notice for f.Level, or "" for None, built by
// concatenation: a notice is on the hook's measured path, where fmt's
// first use costs. The dollars read one way (design §6): one net figure,
// the verdict's, against the real alternative; how it was priced is
// `context-budget lines`'s to say. The agent is told to relay iff the
// verdict's choice is to relay (Relays).
func Text(f Facts) string {
	var b strings.Builder
	b.Grow(1024) // a notice is about 1 KB: one allocation, not a doubling chain
	name, key, l := "warning", "warn", f.Lines.Warn
	switch f.Level {
	case climb.Warn:
	case climb.Pause:
		name, key, l = "pause", "pause", f.Lines.Pause
	default:
		return ""
	}
	b.WriteString("Context budget: this session carries ~" + K(f.Reading) + " tokens of context, past the " +
		K(l.Tokens) + " " + name + " line (" + LineWhy(l, key, f.WindowWords) + ").")
	if m := f.Money; m != nil {
		// A line the window set has just said where Claude Code compacts.
		b.WriteString(" " + VerdictWords(m, l.SetBy != lines.Window) + " Give the operator this figure.")
	}
	if !f.Relays() {
		b.WriteString("\n\n" + goOnWords(f))
		return b.String()
	}
	plan := "if you are carrying out a plan, release it as the " + f.Skill("go") + " skill's \"Stopping partway releases the plan\" says"
	if f.Level == climb.Warn {
		room := max(f.Lines.Pause.Tokens-f.Reading, 0)
		b.WriteString("\n\nThe pause line is at " + K(f.Lines.Pause.Tokens) + ": about " + K(room) +
			" tokens of room. If the work in hand fits, finish it and say in your report why you did not stop. If not, steer to the best stopping point within that room, start nothing you cannot finish, and stop there; " +
			plan + "; then end as below.")
	} else {
		b.WriteString("\n\nStop now, wherever the work stands, unless it is literally one small step (under ~20k tokens) from done; then finish that step and say why. Commit what is in hand; " +
			plan + "; push, and end as below.")
	}
	if f.Manual {
		b.WriteString("\n\nEnding: tell the operator that the session paused for its context budget, and end your turn offering " +
			f.Skill("relay") + "; do not run it unasked.")
	} else {
		b.WriteString("\n\nEnding: without asking and with no argument, run " + f.Skill("relay") +
			"; its report says it relayed on its own")
		if f.Offer {
			b.WriteString(" and offers once, naming no file, to ask first in future: \"If you'd rather I ask before relaying, say so.\"")
		} else {
			b.WriteString(".")
		}
	}
	return b.String()
}

// goOnWords is what a notice whose verdict is not to relay asks
// (MUTHUR_CONTEXT_BUDGET_PREFER=cheapest): to go on, and where Claude
// Code compacts, to reach a clean point before it.
func goOnWords(f Facts) string {
	m := f.Money
	if m.Verdict.Choice != lines.ChoiceCompact {
		return "Do not stop for this: carrying on is the cheaper way on. Go on with the work, and say in your report that the " +
			"notice came and why you went on."
	}
	room := max(m.CompactAt-f.Reading, 0)
	return "Do not stop for this: letting Claude Code compact is the cheaper way on. It will compact this session near ~" + K(m.CompactAt) +
		", about " + K(room) + " tokens from here, and keep only a summary. Reach a clean point before then: finish or commit the step in hand, " +
		"write down what the work still needs where the next part of the session will find it, and start nothing you cannot bring to such a point " +
		"within that room. Say in your report that the notice came and why you went on."
}

// Subagent is a subagent's wrap-up notice (design §16): its own context
// is past its line, why is what set the line. It leaves the plan to the
// session that holds it.
func Subagent(reading, line int64, why string) string {
	return "Context budget: this subagent carries ~" + K(reading) + " tokens of context, past its " + K(line) +
		" wrap-up line (" + why + "). Wrap up now: finish the step in hand only if it is one small step from done, " +
		"then end by reporting to the session that started you what is done and what is left. " +
		"Do not touch the plan (do not edit, rename or release it): the session that holds it decides what comes next."
}

// Short is the notice's one line for the person at the keyboard
// (systemMessage, design §6): the reading, the line, the verdict's net
// figure where priced, and what the agent was told; at most 200
// characters.
func Short(f Facts) string {
	name, l := "warning", f.Lines.Warn
	if f.Level == climb.Pause {
		name, l = "pause", f.Lines.Pause
	}
	s := "Context budget: ~" + K(f.Reading) + " tokens, past the " + K(l.Tokens) + " " + name + " line"
	if m := f.Money; m != nil {
		v := &m.Verdict
		if v.NetUSD >= 0 {
			s += "; relaying now saves ~" + USD(v.NetUSD) + " vs " + against(m)
		} else {
			s += "; relaying costs ~" + USD(-v.NetUSD) + " more than " + against(m)
		}
	}
	switch {
	case !f.Relays() && f.Money.Verdict.Choice == lines.ChoiceCompact:
		return s + ". The agent was told to go on to a clean point before Claude Code compacts."
	case !f.Relays():
		return s + ". The agent was told to go on."
	case f.Level == climb.Pause && f.Manual:
		return s + ". The agent was told to stop and offer /relay."
	case f.Level == climb.Pause:
		return s + ". The agent was told to stop and relay."
	}
	return s + ". The agent was told to steer to a stopping point."
}

// against names the verdict's alternative in a few words: "carrying on"
// or "compacting at ~167k".
func against(m *lines.Money) string {
	if m.Verdict.Against == lines.ChoiceCompact {
		return "compacting at ~" + K(m.CompactAt)
	}
	return "carrying on"
}

// VerdictWords says the verdict as one sentence with one net figure:
// "Relaying now saves about $0.31 over the next 100k tokens against
// letting Claude Code compact at ~167k.", the point said unless
// withPoint is false. Where relaying costs more, it says so: against
// carrying on in the design's words ("does not pay yet"), against
// compacting with what the figure leaves out.
func VerdictWords(m *lines.Money, withPoint bool) string {
	v := &m.Verdict
	if v.Against != lines.ChoiceCompact && v.NetUSD < 0 {
		return "Relaying does not pay yet: over the next 100k tokens it costs about " + USD(-v.NetUSD) + " more than carrying on."
	}
	alt := "carrying on"
	if v.Against == lines.ChoiceCompact {
		alt = "letting Claude Code compact"
		if withPoint {
			alt += " at ~" + K(m.CompactAt)
		}
	}
	if v.NetUSD >= 0 {
		return "Relaying now saves about " + USD(v.NetUSD) + " over the next 100k tokens against " + alt + "."
	}
	return "Over the next 100k tokens, relaying now costs about " + USD(-v.NetUSD) + " more than " + alt + ", whose losses are not priced."
}

// VerdictShort says the verdict in a few words, the choice first, as the
// status line and `lines` show it: "relay: saves $0.31 vs compacting",
// "relay: costs $0.42 more than compacting", "compact: relaying costs
// $0.42 more".
func VerdictShort(v lines.Verdict) string {
	alt := "carrying on"
	if v.Against == lines.ChoiceCompact {
		alt = "compacting"
	}
	switch {
	case v.Choice != lines.ChoiceRelay:
		return v.Choice + ": relaying costs " + USD(-v.NetUSD) + " more"
	case v.NetUSD >= 0:
		return "relay: saves " + USD(v.NetUSD) + " vs " + alt
	}
	return "relay: costs " + USD(-v.NetUSD) + " more than " + alt
}

// SavedWords says a past saving against carrying on one way: "saved
// $0.81", or "cost $0.46 more than carrying on" when it is negative.
func SavedWords(v float64) string {
	if v < 0 {
		return NetSavedWords(v) + " than carrying on"
	}
	return NetSavedWords(v)
}

// NetSavedWords says a past net saving, whatever it was against, one
// way: "saved $0.81", or "cost $0.46 more".
func NetSavedWords(v float64) string {
	if v < 0 {
		return "cost " + USD(-v) + " more"
	}
	return "saved " + USD(v)
}

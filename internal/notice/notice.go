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

// spread says the band around the carrying-on figure, e.g. "8 in 10
// sessions $4.60–$20.70"; "" without one.
func spread(m *lines.Money) string {
	if m.Share <= 0 {
		return ""
	}
	return strconv.Itoa(int(math.Round(m.Share*10))) + " in 10 sessions " + USD(m.CarryOnLowUSD) + "–" + USD(m.CarryOnHighUSD)
}

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
		return "priced: relaying there saves " + USD(l.SavingUSD) + " over the next 100k tokens"
	case lines.Env:
		return "set in the environment by MUTHUR_CONTEXT_BUDGET_" + strings.ToUpper(name)
	case lines.Window:
		return "set by " + windowWords
	}
	return "the fixed cap"
}

// Text returns the notice for f.Level, or "" for None, built by
// concatenation: a notice is on the hook's measured path, where fmt's
// first use costs. The dollars read one way (design §6): one net figure
// for the relay, carrying on and compaction beside it, and which is
// cheapest; how each was priced is `context-budget lines`'s to say.
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
		b.WriteString(" " + MoneyWords(m) + " Give the operator these figures.")
	}
	plan := "if you are carrying out a plan, release it as the " + f.Skill("go") + " skill's \"Stopping partway releases the plan\" says"
	if f.Level == climb.Warn {
		room := max(f.Lines.Pause.Tokens-f.Reading, 0)
		b.WriteString("\n\nThe pause line is at " + K(f.Lines.Pause.Tokens) + ": about " + K(room) +
			" tokens of room. If the work in hand fits, finish it and say in your report that the warning came and why you did not stop. If not, steer to the best stopping point within that room, start nothing you cannot finish, and stop there; " +
			plan + "; then end as below. At the pause line this comes back as the pause.")
	} else {
		b.WriteString("\n\nStop now, wherever the work stands, unless it is literally one small step (under ~20k tokens) from done; then finish that step and say why. Commit what is in hand; " +
			plan + "; push, and end as below.")
	}
	if f.Manual {
		b.WriteString("\n\nEnding: tell the operator that the session paused for its context budget, and end your turn offering " +
			f.Skill("relay") + "; do not run it unasked.")
	} else {
		b.WriteString("\n\nEnding: without asking and with no argument, run " + f.Skill("relay") +
			"; its report says the session relayed on its own for its context budget.")
		if f.Offer {
			b.WriteString(" In that report, offer once, in plain words, to ask first in future, such as: \"If you'd rather I ask before relaying, say so.\" Name no file or setting.")
		}
	}
	return b.String()
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
// (systemMessage, design §6): the reading, the line, and the relay's net
// figure where priced; at most 200 characters.
func Short(f Facts) string {
	name, l := "warning", f.Lines.Warn
	if f.Level == climb.Pause {
		name, l = "pause", f.Lines.Pause
	}
	s := "Context budget: ~" + K(f.Reading) + " tokens, past the " + K(l.Tokens) + " " + name + " line"
	if m := f.Money; m != nil {
		if m.SavingUSD >= 0 {
			s += "; relaying now saves ~" + USD(m.SavingUSD) + " over the next 100k tokens"
		} else {
			s += "; relaying does not pay yet"
		}
	}
	switch {
	case f.Level == climb.Pause && f.Manual:
		return s + ". The agent was told to stop and offer /relay."
	case f.Level == climb.Pause:
		return s + ". The agent was told to stop and relay."
	}
	return s + ". The agent was told to steer to a stopping point."
}

// MoneyWords says the relay's figures as one sentence that reads one
// way: "Relaying now saves about $0.98 over the next 100k tokens, after
// its $1.22 up-front cost; carrying on costs about $5.83 (8 in 10
// sessions $2.69–$12.04), letting Claude Code compact at ~167k about
// $4.10: relaying is cheapest." Where relaying does not pay yet, it says
// so in those words.
func MoneyWords(m *lines.Money) string {
	var s string
	if m.SavingUSD >= 0 {
		s = "Relaying now saves about " + USD(m.SavingUSD) + " over the next 100k tokens, after its " + USD(m.UpfrontUSD) + " up-front cost"
	} else {
		s = "Relaying does not pay yet: over the next 100k tokens it costs about " + USD(-m.SavingUSD) +
			" more than carrying on, its " + USD(m.UpfrontUSD) + " up-front cost included"
	}
	s += "; carrying on costs about " + USD(m.CarryOnUSD)
	if sp := spread(m); sp != "" {
		s += " (" + sp + ")"
	}
	if m.Compacts {
		s += ", letting Claude Code compact at ~" + K(m.CompactAt) + " about " + USD(m.CompactUSD)
	}
	switch m.Cheapest {
	case lines.ChoiceRelay:
		return s + ": relaying is cheapest."
	case lines.ChoiceCompact:
		return s + ": compacting is cheapest, though what it loses is not priced."
	}
	return s + ": carrying on is cheapest."
}

// SavedWords says a past saving one way: "saved $0.81", or "cost $0.46
// more than carrying on" when it is negative.
func SavedWords(v float64) string {
	if v < 0 {
		return "cost " + USD(-v) + " more than carrying on"
	}
	return "saved " + USD(v)
}

// RelayWords says what relaying now does over the next 100k tokens:
// "saves $0.12" or "costs $2.76".
func RelayWords(m *lines.Money) string {
	if m.SavingUSD >= 0 {
		return "saves " + USD(m.SavingUSD)
	}
	return "costs " + USD(-m.SavingUSD)
}

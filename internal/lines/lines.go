package lines

import (
	"github.com/muthur/context-budget/internal/climb"
	"github.com/muthur/context-budget/internal/tuning"
)

// SetBy names what set a line.
type SetBy string

// What can set a line.
const (
	Priced SetBy = "priced"
	Cap    SetBy = "cap"
	Env    SetBy = "env"
	Window SetBy = "window"
)

// Line is one line in tokens and what set it.
type Line struct {
	Tokens int64 `json:"tokens"`
	SetBy  SetBy `json:"set_by"`
	// SavingUSD is the dollar threshold of a priced line.
	SavingUSD float64 `json:"saving_usd,omitempty"`
}

// Lines are the warn and pause lines in force.
type Lines struct {
	Warn  Line `json:"warn"`
	Pause Line `json:"pause"`
}

// Fixed returns the lines with no pricing: the caps, each replaced by its
// environment value when set.
func Fixed(s tuning.Settings) Lines {
	ls := Lines{
		Warn:  Line{Tokens: tuning.WarnCap, SetBy: Cap},
		Pause: Line{Tokens: tuning.PauseCap, SetBy: Cap},
	}
	if s.Warn > 0 {
		ls.Warn = Line{Tokens: s.Warn, SetBy: Env}
	}
	if s.Pause > 0 {
		ls.Pause = Line{Tokens: s.Pause, SetBy: Env}
	}
	return ls
}

// Tokens returns the two lines in tokens, as the once-per-climb rule
// (package climb) compares them.
func (ls Lines) Tokens() climb.LineTokens {
	return climb.LineTokens{Warn: ls.Warn.Tokens, Pause: ls.Pause.Tokens}
}

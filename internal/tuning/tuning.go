// Package tuning holds our own variables (design §12): every MUTHUR_*
// name the program reads, its default and its validation. An invalid
// value is an *Error naming the variable: the hook prints that one line
// on stderr and sends no notice for that call. Claude Code's own settings
// files are another concept, package settings.
package tuning

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The tuning variables.
const (
	EnvWarn           = "MUTHUR_CONTEXT_BUDGET_WARN"
	EnvPause          = "MUTHUR_CONTEXT_BUDGET_PAUSE"
	EnvWarnSaving     = "MUTHUR_CONTEXT_BUDGET_WARN_SAVING_USD"
	EnvPauseSaving    = "MUTHUR_CONTEXT_BUDGET_PAUSE_SAVING_USD"
	EnvLines          = "MUTHUR_CONTEXT_BUDGET_LINES"
	EnvManual         = "MUTHUR_MANUAL_CONTEXT_BUDGET_RELAY"
	EnvWindow         = "MUTHUR_CONTEXT_BUDGET_WINDOW"
	EnvRate           = "MUTHUR_CONTEXT_BUDGET_RATE"
	EnvPrefer         = "MUTHUR_CONTEXT_BUDGET_PREFER"
	EnvSubagent       = "MUTHUR_CONTEXT_BUDGET_SUBAGENT"
	EnvAutocompactPct = "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"
)

// Variables lists every variable the program reads, for doctor and help.
var Variables = []string{EnvWarn, EnvPause, EnvWarnSaving, EnvPauseSaving, EnvLines, EnvManual, EnvWindow, EnvRate, EnvPrefer, EnvSubagent,
	EnvCold, EnvColdSaving, EnvSpend, EnvSpendDay, EnvLoop, EnvBurn}

// Defaults of the lines (design §4, §16).
const (
	WarnCap            = 300_000
	PauseCap           = 400_000
	SubagentLine       = 170_000
	DefaultWarnSaving  = 0.20
	DefaultPauseSaving = 0.80
)

// The forecasts of MUTHUR_CONTEXT_BUDGET_RATE.
const (
	RateForecast      = "forecast"
	RateSinceBoundary = "since-boundary"
)

// The policies of MUTHUR_CONTEXT_BUDGET_PREFER (design §4.2): what the
// pause does where relaying is not the cheapest way on.
const (
	// PreferRelay stops and relays at every pause, saying what that
	// costs or saves: a written hand-over keeps what a summary loses.
	PreferRelay = "relay"
	// PreferCheapest follows the dollars: where letting Claude Code
	// compact, or carrying on, costs less, the pause does not stop the
	// agent.
	PreferCheapest = "cheapest"
)

// Settings are the validated tuning values.
type Settings struct {
	// Warn and Pause fix a line in tokens; 0 means unset.
	Warn, Pause int64
	// WarnSaving and PauseSaving are the dollar thresholds of the priced
	// lines.
	WarnSaving, PauseSaving float64
	// Fixed is MUTHUR_CONTEXT_BUDGET_LINES=fixed: the caps, no pricing.
	Fixed bool
	// Manual is MUTHUR_MANUAL_CONTEXT_BUDGET_RELAY: Yes, No or Unset.
	Manual Switch
	// Window is the context window in tokens; 0 means unset.
	Window int64
	// Rate is how the next slice is forecast: RateForecast (the session's
	// measured pace, rewrites and output) or RateSinceBoundary (design
	// §4's mean requests per token since the latest boundary, cache
	// written once, output left out).
	Rate string
	// Prefer is the pause's policy: PreferRelay or PreferCheapest.
	Prefer string
}

// Error reports an invalid variable.
type Error struct {
	Var, Value, Reason string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s=%q: %s", e.Var, e.Value, e.Reason)
}

// FromEnv reads and validates the settings through getenv (os.Getenv in
// production, a map in tests).
func FromEnv(getenv func(string) string) (Settings, error) {
	s := Settings{WarnSaving: DefaultWarnSaving, PauseSaving: DefaultPauseSaving}
	var err error
	if s.Warn, err = tokens(getenv, EnvWarn); err != nil {
		return s, err
	}
	if s.Pause, err = tokens(getenv, EnvPause); err != nil {
		return s, err
	}
	if s.Warn > 0 && s.Pause > 0 && s.Warn >= s.Pause {
		return s, &Error{EnvWarn, getenv(EnvWarn), fmt.Sprintf("the warn line must be below the pause line (%s=%d)", EnvPause, s.Pause)}
	}
	// A warn line alone at or past the pause cap can never fire. A pause
	// line alone below the warn cap can: the warn line in force is often
	// priced or set by the window far lower (122k on a 200k window), and a
	// pause fixed at, say, 150k is exactly what such a window needs. Where
	// the warn line does land past it, only the pause fires, once.
	if s.Warn > 0 && s.Pause == 0 && s.Warn >= PauseCap {
		return s, &Error{EnvWarn, getenv(EnvWarn), fmt.Sprintf("the warn line must be below the pause cap (%d)", PauseCap)}
	}
	if s.WarnSaving, err = dollars(getenv, EnvWarnSaving, DefaultWarnSaving); err != nil {
		return s, err
	}
	if s.PauseSaving, err = dollars(getenv, EnvPauseSaving, DefaultPauseSaving); err != nil {
		return s, err
	}
	if s.WarnSaving >= s.PauseSaving {
		name := EnvWarnSaving
		if getenv(EnvWarnSaving) == "" {
			name = EnvPauseSaving
		}
		return s, &Error{name, getenv(name), fmt.Sprintf("the warn saving (%.2f) must be below the pause saving (%.2f)", s.WarnSaving, s.PauseSaving)}
	}
	switch v := strings.TrimSpace(getenv(EnvLines)); strings.ToLower(v) {
	case "", "priced":
	case "fixed":
		s.Fixed = true
	default:
		return s, &Error{EnvLines, v, `must be "priced" or "fixed"`}
	}
	s.Manual = ParseSwitch(getenv(EnvManual))
	if s.Window, err = tokens(getenv, EnvWindow); err != nil {
		return s, err
	}
	if s.Rate, err = oneOf(getenv, EnvRate, RateForecast, RateSinceBoundary); err != nil {
		return s, err
	}
	if s.Prefer, err = oneOf(getenv, EnvPrefer, PreferRelay, PreferCheapest); err != nil {
		return s, err
	}
	return s, nil
}

// oneOf reads the variable name as one of the words allowed (trimmed,
// any case); unset, the first of them.
func oneOf(getenv func(string) string, name string, allowed ...string) (string, error) {
	v := strings.ToLower(strings.TrimSpace(getenv(name)))
	if v == "" {
		return allowed[0], nil
	}
	if slices.Contains(allowed, v) {
		return v, nil
	}
	return "", &Error{name, getenv(name), `must be "` + strings.Join(allowed, `" or "`) + `"`}
}

// SubagentFromEnv is a subagent's wrap-up line (design §16):
// MUTHUR_CONTEXT_BUDGET_SUBAGENT in tokens, else SubagentLine.
func SubagentFromEnv(getenv func(string) string) (int64, error) {
	n, err := tokens(getenv, EnvSubagent)
	if n == 0 && err == nil {
		n = SubagentLine
	}
	return n, err
}

func tokens(getenv func(string) string, name string) (int64, error) {
	v := strings.TrimSpace(getenv(name))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, &Error{name, v, "must be a positive whole number of tokens"}
	}
	return n, nil
}

func dollars(getenv func(string) string, name string, def float64) (float64, error) {
	v := strings.TrimSpace(getenv(name))
	if v == "" {
		return def, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, &Error{name, v, "must be a dollar amount such as 0.20"}
	}
	return f, nil
}

// Switch is a yes/no setting that may be unset or unreadable.
type Switch int

// The values of a Switch.
const (
	Unset Switch = iota
	Yes
	No
)

// ParseSwitch reads true/yes/on/1 as Yes and false/no/off/0 as No (trimmed,
// any case); anything else is Unset, which leaves the default.
func ParseSwitch(v string) Switch {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on", "1":
		return Yes
	case "false", "no", "off", "0":
		return No
	}
	return Unset
}

// Package window finds a session's context window and the point where
// Claude Code will compact it on its own (design §4.1), so that the pause
// comes before a compaction takes the choice of where to stop away.
//
// The window comes from the first source that answers (Source): "env"
// (MUTHUR_CONTEXT_BUDGET_WINDOW, in tokens); "transcript" (a
// requestedModel with a [1m] suffix, or an api-request record whose betas
// include "context-1m-…"; older versions write neither, so silence proves
// nothing); "observed" (a reading above 200,000 tokens, which no 200k
// request can carry); "statusline" (the context_window_size our status
// line recorded in <state>/<session_id>.window, a decimal number of
// tokens); "default" (200,000).
//
// The compaction point is Claude Code's auto-compact threshold as its
// source computes it: the window less the summary's reserve,
// min(max output, SummaryReserve), less AutocompactGap — 167,000 on a 200k
// window, 967,000 on 1M. It comes from the first that has it
// (CompactSource): "env" / "settings", Claude Code's own setting
// (CLAUDE_CODE_AUTO_COMPACT_WINDOW, at least MinSetting, else the
// settings files' autoCompactWindow for the model, caps the window;
// CLAUDE_AUTOCOMPACT_PCT_OVERRIDE, 0 < p ≤ 100, lowers the threshold to p%
// of the effective window); "session", an automatic compaction earlier in
// this session while the window is not known to be 1M by other means;
// "sessions", the user's other sessions of the same version and window
// under the same setting, the same project's first (Learn), or "ledger"
// when only committed rows record one, this session's own winning where
// lower, and where neither the table nor a compaction of the version
// knows it, the latest of any version of the window; every learned
// point bounded to [half the window, the window]; "table", the shipped
// table by version (fitted.go); "default", the table's most cautious row.
//
// The variables are read from the environment Claude Code passes to its
// hooks, settings' env blocks included.
package window

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
)

// Sources of the window.
const (
	Env        = "env"
	Transcript = "transcript"
	Observed   = "observed"
	Statusline = "statusline"
	Default    = "default"
)

// Windows Claude Code uses.
const (
	Standard = 200_000
	OneM     = 1_000_000
)

// Claude Code's auto-compact constants (see the package doc).
const (
	SummaryReserve  = 20_000
	AutocompactGap  = 13_000
	EnvPctOverride  = "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"
	EnvCompactLimit = "CLAUDE_CODE_AUTO_COMPACT_WINDOW"
	// MinSetting is the least window Claude Code takes from
	// CLAUDE_CODE_AUTO_COMPACT_WINDOW: a smaller value counts as it.
	MinSetting = 100_000
)

// EnoughRoom is what the relay needs between the pause and the
// compaction: the summary turn and the few tool calls that commit, push
// and hand over (10–20k tokens of work, design §4.1).
const EnoughRoom = 20_000

// Window is a session's context window, where it came from, and where
// Claude Code compacts it.
type Window struct {
	Tokens     int64  `json:"tokens"`
	Source     string `json:"source"`
	CompactsAt int64  `json:"compacts_at"`
	// CompactSource names where CompactsAt came from (PointEnv …
	// PointDefault); Version is the Claude Code version it was looked up
	// for; Count and Sessions the compactions it rests on and how many
	// sessions they came from (0 when none were counted).
	CompactSource string `json:"compacts_source,omitempty"`
	Version       string `json:"version,omitempty"`
	Count         int    `json:"count,omitempty"`
	Sessions      int    `json:"sessions,omitempty"`
	// AnyVersion says CompactsAt was learned from compactions of other
	// Claude Code versions of the window: none of Version was known.
	AnyVersion bool `json:"any_version,omitempty"`
	// PauseRoom is what the pause line keeps under CompactsAt: EnoughRoom
	// and the step a line is crossed in (Table.StepAllowance).
	PauseRoom int64 `json:"pause_room,omitempty"`
}

// Evidence is what the session has shown about its window.
type Evidence struct {
	// Env is MUTHUR_CONTEXT_BUDGET_WINDOW (0: unset).
	Env int64
	// Transcript1M: the transcript says the 1M window is on.
	Transcript1M bool
	// Peak is the largest reading seen in the session.
	Peak int64
	// Statusline is the window our statusline recorded (0: none).
	Statusline int64
	// Settings is the autoCompactWindow Claude Code's settings files set
	// for the session's model (0: none, or "auto").
	Settings int64
	// AutoCompactAt is the preTokens of an automatic compaction seen in
	// the session (0: none).
	AutoCompactAt int64
	// Version is the Claude Code version of the latest response.
	Version string
	// Seen are the automatic compactions of the user's other sessions
	// (their transcripts and the ledger's rows), and Before the time of
	// the latest response (RFC 3339): only what was seen before it
	// counts, so that replay sees them as they stood. Session and
	// Project name this session (its own compactions are left out) and
	// the folder it runs in (its own project's are taken first).
	Seen             *History
	Before           string
	Session, Project string
	// Table is the shipped table; nil means Shipped().
	Table *Table
}

// Detect returns the window: the first source that answers.
func Detect(e Evidence, getenv func(string) string) Window {
	w := Window{Tokens: Standard, Source: Default}
	switch {
	case e.Env > 0:
		w = Window{Tokens: e.Env, Source: Env}
	case e.Transcript1M:
		w = Window{Tokens: OneM, Source: Transcript}
	case e.Peak > Standard:
		w = Window{Tokens: OneM, Source: Observed}
	case e.Statusline > 0:
		w = Window{Tokens: e.Statusline, Source: Statusline}
	}
	t := e.Table
	if t == nil {
		t = Shipped()
	}
	w.Version = e.Version
	w.PauseRoom = EnoughRoom + t.StepAllowance
	if at, src, ok := settingPoint(w.Tokens, e.Settings, getenv); ok {
		w.CompactsAt, w.CompactSource = at, src
		return w
	}
	if r, ok := t.Lookup(e.Version); ok {
		w.CompactsAt, w.CompactSource, w.Count, w.Sessions = max(w.Tokens-r.Below, 0), PointTable, r.Compactions, r.Sessions
	} else {
		w.CompactsAt, w.CompactSource = max(w.Tokens-t.DefaultBelow, 0), PointDefault
	}
	// A compaction happens at the first request past the threshold, so
	// each preTokens seen is an upper bound of it: the lowest of the
	// latest few is the point. It may lower the table's point on one
	// compaction, and raise it on two or more: one request that jumped
	// far past the threshold must not move the pause late.
	at, src, count, sessions := int64(0), "", 0, 0
	if e.AutoCompactAt > 0 && (w.Source == Default || w.Source == Statusline || w.Source == Env) {
		at, src, count, sessions = Bound(e.AutoCompactAt, w.Tokens/2, w.Tokens), PointSession, 1, 1
	}
	// Where neither the table nor a compaction of this version knows the
	// point, the latest of any version of the window come closer than
	// the table's most cautious row: the point moves with the server
	// more than with the version.
	q := Query{Version: e.Version, Window: w.Tokens, Before: e.Before, Session: e.Session, Project: e.Project,
		AnyVersion: at == 0 && !t.Knows(e.Version)}
	anyVersion := false
	if o, ok := Learn(e.Seen, q, t); ok {
		if at == 0 || o.At < at {
			at, src, anyVersion = o.At, o.Source, o.AnyVersion
		}
		count, sessions = count+o.Compactions, sessions+o.Sessions
	}
	if at > 0 && (at <= w.CompactsAt || count >= 2) {
		w.CompactsAt, w.CompactSource, w.Count, w.Sessions, w.AnyVersion = at, src, count, sessions, anyVersion
	}
	return w
}

// settingPoint is Claude Code's threshold when its own setting moves it
// (see the package doc); ok is false when nothing is set, src names what
// set it.
func settingPoint(window, settings int64, getenv func(string) string) (at int64, src string, ok bool) {
	if v, err := strconv.ParseInt(strings.TrimSpace(getenv(EnvCompactLimit)), 10, 64); err == nil && v > 0 {
		window, src, ok = min(window, max(v, MinSetting)), PointEnv, true
	} else if settings > 0 {
		window, src, ok = min(window, settings), PointSettings, true
	}
	eff := window - SummaryReserve
	at = eff - AutocompactGap
	if p, err := strconv.ParseFloat(strings.TrimSpace(getenv(EnvPctOverride)), 64); err == nil && p > 0 && p <= 100 {
		if pct := int64(math.Floor(float64(eff) * p / 100)); pct < at {
			at, src = pct, PointEnv
		}
		ok = true
		if src == "" {
			src = PointEnv
		}
	}
	return max(at, 0), src, ok
}

// FileName is the statusline's record of a session's window, in a state
// folder.
func FileName(dir, session string) string {
	return filepath.Join(dir, session+state.WindowSuffix)
}

// ReadFile reads a window recorded by the statusline; 0 when absent or
// unreadable.
func ReadFile(name string) int64 {
	data, err := reading.ReadFile(name, reading.MaxWindowFile)
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

// SeriesWords is the series of the Claude Code version the compaction
// point was looked up for, as words say it ("2.1.x"), or "" when Version
// is not a version.
func (w Window) SeriesWords() string {
	if _, ok := parseVersion(w.Version); ok {
		return Series(w.Version)
	}
	return ""
}

// PointWords says where the compaction point came from.
func (w Window) PointWords() string {
	switch w.CompactSource {
	case PointEnv:
		return "from " + EnvPctOverride + " / " + EnvCompactLimit
	case PointSettings:
		return "from autoCompactWindow in Claude Code's settings"
	case PointSession:
		return "seen earlier in this session"
	case PointSessions:
		return "seen in " + plural(w.Sessions, "of your sessions", "of your sessions") + w.otherVersions()
	case PointRows:
		return "seen in the ledger's rows of " + plural(w.Sessions, "session", "sessions") + w.otherVersions()
	case PointTable:
		if w.Count > 0 {
			return "fitted on " + plural(w.Count, "compaction", "compactions") + " in " + plural(w.Sessions, "real session", "real sessions")
		}
		return "measured on the CLI this build pins"
	}
	return "a cautious default (a version the table does not know)"
}

// otherVersions says, after a learned point's source, that it came from
// other versions than the session's.
func (w Window) otherVersions() string {
	if w.AnyVersion {
		return " of other Claude Code versions"
	}
	return ""
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// SourceWords says where the window size came from, e.g. "the default".
func (w Window) SourceWords() string {
	switch w.Source {
	case Env:
		return "MUTHUR_CONTEXT_BUDGET_WINDOW"
	case Transcript:
		return "the transcript"
	case Observed:
		return "a reading past 200k"
	case Statusline:
		return "the statusline"
	}
	return "the default"
}

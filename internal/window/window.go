// Package window finds a session's context window and the point where
// Claude Code will compact it on its own (design §4.1), so that the pause
// comes before a compaction takes the choice of where to stop away.
//
// # The window
//
// The first source that answers, named in Source:
//
//   - "env": MUTHUR_CONTEXT_BUDGET_WINDOW, in tokens.
//   - "transcript": the transcript proves the 1M window. Claude Code
//     2.1.332 writes requestedModel with a [1m] suffix (e.g.
//     "claude-opus-4-6[1m]") on assistant records, and api-request records
//     whose params.betas include "context-1m-…". Older versions (the 2.1.3x
//     transcripts beside the repository) write neither, so silence here
//     proves nothing.
//   - "observed": a reading above 200,000 tokens in this session; no
//     200k-window request can carry that.
//   - "statusline": what our statusline recorded from Claude Code's
//     context_window.context_window_size for the session, in
//     <root>/tmp/context-budget/<session_id>.window (the decimal number of
//     tokens, a newline optional).
//   - "default": 200,000.
//
// # The compaction point
//
// Claude Code's auto-compact threshold, as its source computes it
// (services/compact/autoCompact.ts, deobfuscated in anthropics/claude-code
// issue #31806 and in the "Harness engineering" book's chapter 9 on
// auto-compaction): the effective window is the window minus the tokens
// reserved for the summary, min(the model's max output, 20,000); the
// threshold is the effective window minus a 13,000-token buffer. On a 200k
// window that is 167,000 — the real transcripts compact at preTokens
// 167,094 and 170,251 — and on a 1M window 967,000, the "~967K" of Claude
// Code's model-config page.
//
// Where it comes from, first that has it (CompactSource):
//
//   - "env" / "settings": Claude Code's own setting, as the pinned CLI
//     resolves it. CLAUDE_CODE_AUTO_COMPACT_WINDOW (tokens, at least
//     100,000), else the settings files' autoCompactWindow for the model
//     (package settings reads them; the recompute passes the value in),
//     caps the window the threshold is computed from;
//     CLAUDE_AUTOCOMPACT_PCT_OVERRIDE (0 < p ≤ 100) lowers the threshold
//     to p% of the effective window when that is lower — 2.1.332 still
//     applies it (measured against the e2e mock).
//   - "session": an automatic compaction earlier in this session, while
//     the window is not known to be 1M by other means (a session that
//     switched to a 1M model has moved past it).
//   - "sessions": the user's other sessions of the same version and
//     window, their latest automatic compactions by the records' times
//     (Learn); "ledger" when only committed rows record one, bounded.
//     Where this session's own compaction is lower, it wins.
//   - "table": the shipped table by version (fitted.go); "default": the
//     table's most cautious row.
//
// The variables are read from the environment the hook sees, which is
// the one Claude Code passes to its hooks, settings' env blocks included.
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
	// counts, so that replay sees them as they stood.
	Seen   []Compaction
	Before string
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
	// What was seen of this session, while the window is not known to be
	// 1M by other means (a session that switched to a 1M model has moved
	// past it), and of the user's other sessions of the version and
	// window. A compaction happens at the first request past the
	// threshold, so each preTokens is an upper bound of it, past it by up
	// to one step: the lowest of the latest few is the point. It may lower
	// the table's point on one compaction, and raise it on two or more:
	// one request that jumped far past the threshold must not move the
	// pause late.
	at, src, count, sessions := int64(0), "", 0, 0
	if e.AutoCompactAt > 0 && (w.Source == Default || w.Source == Statusline || w.Source == Env) {
		at, src, count, sessions = e.AutoCompactAt, PointSession, 1, 1
	}
	if o, ok := Learn(e.Seen, e.Version, w.Tokens, e.Before, t); ok {
		if at == 0 || o.At < at {
			at, src = o.At, o.Source
		}
		count, sessions = count+o.Compactions, sessions+o.Sessions
	}
	if at > 0 && (at <= w.CompactsAt || count >= 2) {
		w.CompactsAt, w.CompactSource, w.Count, w.Sessions = at, src, count, sessions
	}
	return w
}

// settingPoint is Claude Code's threshold when its own setting moves it,
// as the pinned CLI computes it: the window is capped by
// CLAUDE_CODE_AUTO_COMPACT_WINDOW (at least MinSetting), else by the
// settings files' autoCompactWindow; the threshold is that window less
// SummaryReserve and AutocompactGap, lowered to the effective window's
// CLAUDE_AUTOCOMPACT_PCT_OVERRIDE percent when that is lower. ok is false
// when nothing is set; src names what set it.
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
		return "seen in " + plural(w.Sessions, "of your sessions", "of your sessions")
	case PointRows:
		return "seen in the ledger's rows of " + plural(w.Sessions, "session", "sessions")
	case PointTable:
		if w.Count > 0 {
			return "fitted on " + plural(w.Count, "compaction", "compactions") + " in " + plural(w.Sessions, "real session", "real sessions")
		}
		return "measured on the CLI this build pins"
	}
	return "a cautious default (a version the table does not know)"
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

// Package ledger reads and writes the session rows of a project's cost
// ledger: one JSON file per Claude Code session, at
//
//	<root>/.claude/costs/sessions/<YYYY-MM>/<session_id>.json
//
// where YYYY-MM is the month of the session's first response. A row holds
// what the session cost at API rates, split by own turns and subagents
// and by model and speed, and what it spent before it first acted (its
// orientation) and after each compaction. Rows are meant to be committed.
//
// The camelCase names match the rows the original shell and Python ledger
// wrote, so those read too; a row may lack newer fields, and fields this
// package does not know are ignored. A file that is not a row is skipped
// and counted by the Reader. Write replaces a row atomically (a temporary
// file renamed over it): a reader or a crash sees the old row or the new.
package ledger

import (
	"encoding/json"
	"math"
	"strings"
)

// Row is one session's line in the ledger.
type Row struct {
	SessionID string `json:"sessionId"`
	// Branch is the git branch the session ran on, if known.
	Branch string `json:"branch"`
	// Cwd is the folder of the session's first response, relative to
	// the top of its git work tree ("." for the top), else to the
	// project's root: a committed row names no one's home. Rows written
	// before hold the absolute path, and still read.
	Cwd string `json:"cwd"`
	// OpeningPrompt is the session's first prompt: whitespace collapsed, a
	// slash command as "/name args", cut at 160 characters.
	OpeningPrompt string `json:"openingPrompt"`
	// Operator is the GitHub login of the person behind the session, if
	// one was resolved.
	Operator string `json:"operator"`
	// Author is the git user.email of the project the session ran in,
	// when it has one: who ran the session, for the team's totals
	// (ledger --by operator). Absent on older rows.
	Author          string `json:"author,omitempty"`
	FirstResponseAt string `json:"firstResponseAt"`
	LastResponseAt  string `json:"lastResponseAt"`
	// PricesAsOf is the as_of date of the price table the row was priced
	// with; rows are never re-priced.
	PricesAsOf string `json:"pricesAsOf"`
	// ClaudeCodeTotalUSD is Claude Code's own running total of the
	// session's cost (its cost-state records), a cross-check; nil when the
	// transcript carries none.
	ClaudeCodeTotalUSD *float64 `json:"claudeCodeTotalUsd"`
	// Total is OwnTurns plus Subagents.
	Total     Tally `json:"total"`
	OwnTurns  Tally `json:"ownTurns"`
	Subagents Tally `json:"subagents"`
	// ByRate splits Total by "model/speed", e.g. "claude-opus-4-6/standard".
	ByRate   map[string]Tally `json:"byRate"`
	Warnings []string         `json:"warnings"`
	// Orientation is what the session spent before it first acted; nil on
	// a row written before orientation was measured.
	Orientation *Phase `json:"orientation"`
	// Compactions holds one reorientation phase per compaction boundary.
	Compactions []Compaction `json:"compactions"`
	// Pace is the session's measured pace; nil on older rows.
	Pace *Pace `json:"pace,omitempty"`
	// Chain is the id of the relay chain (context-budget run) the session
	// ran in, and Place its place in it, 1 for the first; both absent for
	// a session that ran on its own.
	Chain string `json:"chain,omitempty"`
	Place int    `json:"place,omitempty"`
	// Halts are the spend fuse's halts of the session, oldest first:
	// absent when it never halted.
	Halts []Halt `json:"halts,omitempty"`
	// Notices are the context budget's notices the session was given,
	// oldest first: absent when it had none, and on older rows.
	Notices []Notice `json:"notices,omitempty"`
}

// Notice is one notice of the context budget (design §6): its level
// ("warn" or "pause"), when it fired (RFC 3339, UTC), the reading and
// the lines it fired at, in tokens, the model, and the verdict the
// hook reached, when the lines were priced.
type Notice struct {
	Level   string   `json:"level"`
	At      string   `json:"at"`
	Reading int64    `json:"reading"`
	Warn    int64    `json:"warn"`
	Pause   int64    `json:"pause"`
	Model   string   `json:"model,omitempty"`
	Verdict *Verdict `json:"verdict,omitempty"`
}

// The levels of a notice.
const (
	LevelWarn  = "warn"
	LevelPause = "pause"
)

// Verdict is what a notice said to do over the next slice of work
// (design §4.2): Choice is "relay", "compact" or "carry on", Against
// the alternative it was weighed against, NetUSD what relaying now
// saves over that alternative (negative: what it costs more), Policy
// the rule that chose ("relay" or "cheapest").
type Verdict struct {
	Choice  string  `json:"choice"`
	Against string  `json:"against,omitempty"`
	NetUSD  float64 `json:"netUsd"`
	Policy  string  `json:"policy,omitempty"`
}

// Halt is one halt of the spend fuse: Reason is "cap" (the session's
// cap), "day" (the project's daily cap), "loop" (one tool call repeated)
// or "fuse" (armed, it could not decide a call, so it denied it); Cap is
// the cap in force ("$5.00", "2m tokens", or the loop's "5 calls"), At
// when (RFC 3339, UTC), Words what was spent, the call repeated, or why.
type Halt struct {
	Reason string `json:"reason"`
	Cap    string `json:"cap"`
	At     string `json:"at"`
	Words  string `json:"words"`
}

// Tally counts tokens, responses and dollars.
type Tally struct {
	InputTokens        int64   `json:"inputTokens"`
	CacheWrite5mTokens int64   `json:"cacheWrite5mTokens"`
	CacheWrite1hTokens int64   `json:"cacheWrite1hTokens"`
	CacheReadTokens    int64   `json:"cacheReadTokens"`
	OutputTokens       int64   `json:"outputTokens"`
	Responses          int64   `json:"responses"`
	CostUSD            float64 `json:"costUsd"`
}

// Add returns the sum of t and u. The counts saturate instead of wrapping:
// a transcript's usage is input too, and a sum of hostile counts must stay
// out of range (for Check and Sanitize to see), never wrap into it.
func (t Tally) Add(u Tally) Tally {
	return Tally{
		InputTokens:        satAdd(t.InputTokens, u.InputTokens),
		CacheWrite5mTokens: satAdd(t.CacheWrite5mTokens, u.CacheWrite5mTokens),
		CacheWrite1hTokens: satAdd(t.CacheWrite1hTokens, u.CacheWrite1hTokens),
		CacheReadTokens:    satAdd(t.CacheReadTokens, u.CacheReadTokens),
		OutputTokens:       satAdd(t.OutputTokens, u.OutputTokens),
		Responses:          satAdd(t.Responses, u.Responses),
		CostUSD:            t.CostUSD + u.CostUSD,
	}
}

// satAdd is a + b, held at the int64 bounds.
func satAdd(a, b int64) int64 {
	c := a + b
	switch {
	case a > 0 && b > 0 && c < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && c >= 0:
		return math.MinInt64
	}
	return c
}

// Phase is what a session spent from a start (its first response, or a
// compaction boundary) until it first acted: edited a file of its project,
// asked the operator, or ended its turn.
type Phase struct {
	// EndedBy names what ended the phase: a tool (Edit, Write,
	// NotebookEdit, AskUserQuestion, ExitPlanMode) or "end_turn". Empty
	// when the session has not acted (yet): the phase is not a measure.
	EndedBy string `json:"endedBy"`
	// EndedOn is the file an edit acted on, relative to the session's root.
	EndedOn string `json:"endedOn"`
	// EndedAt is the acting response's timestamp.
	EndedAt string `json:"endedAt"`
	// ContextTokens is the acting response's context: what a session
	// carries once it is oriented.
	ContextTokens int64 `json:"contextTokens"`
	// Spend is every response before the acting one, subagents included.
	Spend Tally `json:"spend"`
}

// Measured reports whether the phase ended by acting.
func (p *Phase) Measured() bool {
	return p != nil && p.EndedBy != "" && p.ContextTokens > 0
}

// Compaction is the reorientation after one compaction boundary.
type Compaction struct {
	// At is the boundary's timestamp; Trigger is "auto" or "manual";
	// PreTokens the context Claude Code compacted.
	At        string `json:"at"`
	Trigger   string `json:"trigger"`
	PreTokens int64  `json:"preTokens"`
	// Version is the Claude Code version that compacted and Window the
	// session's context window then, in tokens: where a version compacts
	// a window is learned from them (design §4.1). Absent on older rows.
	Version string `json:"version,omitempty"`
	Window  int64  `json:"window,omitempty"`
	Phase
}

// RelayPrefix opens the prompt that starts a relayed session.
const RelayPrefix = "/relay take"

// PluginRelayPrefix opens it when the skill came with the plugin, which
// Claude Code names <plugin>:<skill>.
const PluginRelayPrefix = "/context-budget:relay take"

// Relayed reports whether the row's session was started by a /relay: its
// opening prompt starts with "/relay take" or "/context-budget:relay take".
func (r *Row) Relayed() bool {
	return IsRelay(r.OpeningPrompt)
}

// IsRelay reports whether an opening prompt starts a relayed session, by
// either name of the relay skill.
func IsRelay(prompt string) bool {
	p := strings.TrimSpace(prompt)
	for _, prefix := range []string{RelayPrefix, PluginRelayPrefix} {
		if p == prefix || strings.HasPrefix(p, prefix+" ") {
			return true
		}
	}
	return false
}

// wireRow is Row as written: optional strings absent are null, as the
// original ledger wrote them, and empty lists are [] rather than null.
type wireRow struct {
	SessionID          string           `json:"sessionId"`
	Branch             *string          `json:"branch"`
	Cwd                *string          `json:"cwd"`
	OpeningPrompt      *string          `json:"openingPrompt"`
	Operator           *string          `json:"operator"`
	Author             string           `json:"author,omitempty"`
	FirstResponseAt    *string          `json:"firstResponseAt"`
	LastResponseAt     *string          `json:"lastResponseAt"`
	PricesAsOf         string           `json:"pricesAsOf"`
	ClaudeCodeTotalUSD *float64         `json:"claudeCodeTotalUsd"`
	Total              Tally            `json:"total"`
	OwnTurns           Tally            `json:"ownTurns"`
	Subagents          Tally            `json:"subagents"`
	ByRate             map[string]Tally `json:"byRate"`
	Warnings           []string         `json:"warnings"`
	Orientation        *wirePhase       `json:"orientation"`
	Compactions        []wireCompaction `json:"compactions"`
	Pace               *Pace            `json:"pace,omitempty"`
	Chain              string           `json:"chain,omitempty"`
	Place              int              `json:"place,omitempty"`
	Halts              []Halt           `json:"halts,omitempty"`
	Notices            []Notice         `json:"notices,omitempty"`
}

type wirePhase struct {
	EndedBy       *string `json:"endedBy"`
	EndedOn       *string `json:"endedOn"`
	EndedAt       *string `json:"endedAt"`
	ContextTokens *int64  `json:"contextTokens"`
	Spend         Tally   `json:"spend"`
}

type wireCompaction struct {
	At        *string `json:"at"`
	Trigger   *string `json:"trigger"`
	PreTokens int64   `json:"preTokens"`
	Version   string  `json:"version,omitempty"`
	Window    int64   `json:"window,omitempty"`
	wirePhase
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func wireOf(p Phase) wirePhase {
	w := wirePhase{EndedBy: nullable(p.EndedBy), EndedOn: nullable(p.EndedOn), EndedAt: nullable(p.EndedAt), Spend: p.Spend}
	if p.ContextTokens > 0 {
		c := p.ContextTokens
		w.ContextTokens = &c
	}
	return w
}

// MarshalJSON writes the row in the ledger's shape: absent strings as null,
// empty lists and maps as [] and {}.
func (r Row) MarshalJSON() ([]byte, error) {
	w := wireRow{
		SessionID:          r.SessionID,
		Branch:             nullable(r.Branch),
		Cwd:                nullable(r.Cwd),
		OpeningPrompt:      nullable(r.OpeningPrompt),
		Operator:           nullable(r.Operator),
		FirstResponseAt:    nullable(r.FirstResponseAt),
		LastResponseAt:     nullable(r.LastResponseAt),
		PricesAsOf:         r.PricesAsOf,
		ClaudeCodeTotalUSD: r.ClaudeCodeTotalUSD,
		Total:              r.Total,
		OwnTurns:           r.OwnTurns,
		Subagents:          r.Subagents,
		ByRate:             r.ByRate,
		Warnings:           r.Warnings,
		Compactions:        []wireCompaction{},
		Pace:               r.Pace,
		Chain:              r.Chain,
		Place:              r.Place,
		Halts:              r.Halts,
		Author:             r.Author,
		Notices:            r.Notices,
	}
	if w.ByRate == nil {
		w.ByRate = map[string]Tally{}
	}
	if w.Warnings == nil {
		w.Warnings = []string{}
	}
	if r.Orientation != nil {
		p := wireOf(*r.Orientation)
		w.Orientation = &p
	}
	for _, c := range r.Compactions {
		w.Compactions = append(w.Compactions, wireCompaction{
			At: nullable(c.At), Trigger: nullable(c.Trigger), PreTokens: c.PreTokens, Version: c.Version, Window: c.Window,
			wirePhase: wireOf(c.Phase),
		})
	}
	return json.Marshal(w)
}

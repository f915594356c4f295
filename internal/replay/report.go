package replay

import "github.com/muthur/context-budget/internal/lines"

// Report is the whole replay: one Session per main transcript, in path
// order, and the totals. It is what `replay --json` prints and what the
// HTML report is drawn from.
type Report struct {
	Sessions []Session `json:"sessions"`
	Totals   Totals    `json:"totals"`
	// Lines are the lines replay started each session with, for the
	// report's peak distribution; priced lines move per session.
	Lines lines.Lines `json:"lines"`
}

// Session is the replay of one main transcript.
type Session struct {
	SessionID string `json:"session_id"`
	Path      string `json:"path"`
	// Bytes is the size of the main transcript.
	Bytes int64 `json:"bytes"`
	// Subagents counts the subagent transcripts beside it
	// (<session>/subagents/*.jsonl); they are not replayed as sessions.
	Subagents int `json:"subagents"`
	// Responses counts the session's own responses: main chain, not
	// synthetic, one per message.id.
	Responses int `json:"responses"`
	// Peak is the highest reading.
	Peak int64 `json:"peak"`
	// Model is the model of the last response.
	Model string `json:"model,omitempty"`
	// Compactions counts compact_boundary records; Boundaries lists them
	// with the microcompactions.
	Compactions int        `json:"compactions"`
	Boundaries  []Boundary `json:"boundaries"`
	Notices     []Notice   `json:"notices"`
	Pauses      []Pause    `json:"pauses"`
	// Readings is the reading after each response, and WarnLines and
	// PauseLines the lines in force there, when asked for (the HTML
	// report plots them).
	Readings   []int64 `json:"readings,omitempty"`
	WarnLines  []int64 `json:"warn_lines,omitempty"`
	PauseLines []int64 `json:"pause_lines,omitempty"`
	// Error says why the file could not be read to its end.
	Error string `json:"error,omitempty"`
}

// Boundary is a compaction or a microcompaction.
type Boundary struct {
	// Kind is "compact" or "microcompact".
	Kind string `json:"kind"`
	// AfterResponse is the index of the last response before it; -1 when
	// none came before.
	AfterResponse int    `json:"after_response"`
	Trigger       string `json:"trigger,omitempty"`
	PreTokens     int64  `json:"pre_tokens"`
}

// Notice is one notice the hook would have given.
type Notice struct {
	Level   string `json:"level"`
	Reading int64  `json:"reading"`
	// Line is the line crossed, and SetBy what set it.
	Line  int64       `json:"line"`
	SetBy lines.SetBy `json:"set_by"`
	// Response is the index of the session's own response, from 0, after
	// which the notice would have fired.
	Response int `json:"response"`
}

// Pause is a pause notice, judged: what the model predicted there and what
// carrying on really cost.
type Pause struct {
	Response int   `json:"response"`
	Reading  int64 `json:"reading"`
	// SavingUSD and PredictedCarryOnUSD are the model's figures; null when
	// pricing did not run.
	SavingUSD           *float64 `json:"saving_usd"`
	PredictedCarryOnUSD *float64 `json:"predicted_carry_on_usd"`
	PredictedRequests   *float64 `json:"predicted_requests,omitempty"`
	// ActualCarryOnUSD is what the session's own responses after the pause
	// cost, up to and including the first whose reading is at least the
	// pause's reading + 100,000: null when a compaction or an unpriced
	// response comes first, or the session ends.
	ActualCarryOnUSD *float64 `json:"actual_carry_on_usd"`
	// ActualRequests counts those responses (set with ActualCarryOnUSD).
	ActualRequests *int `json:"actual_requests,omitempty"`
}

// Totals sum the sessions.
type Totals struct {
	Sessions  int   `json:"sessions"`
	Bytes     int64 `json:"bytes"`
	Responses int   `json:"responses"`
	// Errors counts sessions that could not be read to their end.
	Errors   int `json:"errors"`
	Notices  int `json:"notices"`
	Warnings int `json:"warnings"`
	Pauses   int `json:"pauses"`
	// CompactedBeforeAnyNotice counts sessions whose first compaction
	// (compact_boundary) came before any notice.
	CompactedBeforeAnyNotice int `json:"compacted_before_any_notice"`
	// CarryOnPoints counts pauses with both a prediction and an actual.
	CarryOnPoints       int      `json:"carry_on_points"`
	PredictedCarryOnUSD *float64 `json:"predicted_carry_on_usd"`
	ActualCarryOnUSD    *float64 `json:"actual_carry_on_usd"`
	// CarryOnMedianAbsError is the median of |predicted − actual| / actual
	// over those pauses: 0.07 means the model was off by 7%.
	CarryOnMedianAbsError *float64 `json:"carry_on_median_abs_error"`
}

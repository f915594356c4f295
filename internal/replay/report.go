package replay

import (
	"github.com/muthur/context-budget/internal/fuse"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/ledger"
)

// Report is the whole replay: one Session per main transcript, in path
// order, and the totals. It is what `replay --json` prints and what the
// HTML report is drawn from.
type Report struct {
	Sessions []Session `json:"sessions"`
	Totals   Totals    `json:"totals"`
	// Lines are the lines replay started each session with, for the
	// report's peak distribution; priced lines move per session.
	Lines lines.Lines `json:"lines"`
	// Fuse totals what the spend fuse would have done, with replay
	// --spend or --loop.
	Fuse *fuse.Summary `json:"fuse,omitempty"`
	// Team totals the committed ledger rows of the replayed sessions'
	// projects, teammates' included, by each of ledger.ByKeys (ledger
	// --by); absent when they have none.
	Team []ledger.Table `json:"team,omitempty"`
}

// Session is the replay of one main transcript.
type Session struct {
	SessionID string `json:"session_id"`
	Path      string `json:"path"`
	// Project is the folder the session ran in: the cwd its transcript
	// names, where replay's command finds one (HomePath says it for a
	// person), else the folder the transcript sits in, as Claude Code
	// names it under ~/.claude/projects/.
	Project string `json:"project"`
	// CostUSD is what the session cost at API rates, its own responses
	// and its subagents', each at its model's rates; null when none was
	// priced.
	CostUSD *float64 `json:"cost_usd"`
	// Started is the first response's time, Branch the git branch of the
	// first record that names one.
	Started string `json:"started,omitempty"`
	Branch  string `json:"branch,omitempty"`
	// Chain and Place are the relay chain the session ran in and its
	// place there (1 for the first), from its ledger row; unset for a
	// session that ran on its own.
	Chain string `json:"chain,omitempty"`
	Place int    `json:"place,omitempty"`
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
	// Rooms is, for each compaction, the room the climb's first pause left
	// before it (Total fills it).
	Rooms []Room `json:"rooms"`
	// Lines are the lines in force at the session's last hook call (nil:
	// the hook never ran: no response made a tool call).
	Lines *lines.Lines `json:"lines,omitempty"`
	// Points are the responses after which the session went on 100k
	// tokens without a boundary: the forecast there against what carrying
	// on really cost. CarryOnMedianAbsError is the median of
	// |predicted − actual| / actual over them.
	Points                []Point  `json:"points"`
	CarryOnMedianAbsError *float64 `json:"carry_on_median_abs_error,omitempty"`
	// Readings is the reading after each response, and WarnLines and
	// PauseLines the lines in force there, when asked for (the HTML
	// report plots them).
	Readings   []int64 `json:"readings,omitempty"`
	WarnLines  []int64 `json:"warn_lines,omitempty"`
	PauseLines []int64 `json:"pause_lines,omitempty"`
	// CompactPoints is where the hook's decision there had Claude Code
	// compact (0: not known).
	CompactPoints []int64 `json:"compact_points,omitempty"`
	// Cold lists the responses that paid a cold re-write, or that the
	// cold-cache stop would have held back (design §14).
	Cold []ColdEvent `json:"cold"`
	// Orientation is the relay side checked: the session's own
	// orientation as the hook measured it, against what the prior
	// forecast for a fresh session from its first context (nil when it
	// was not measured: it never acted, or the lines were fixed).
	Orientation *OrientationCheck `json:"orientation,omitempty"`
	// Error says why the file could not be read to its end.
	Error string `json:"error,omitempty"`
	// Fuse is where the spend fuse would have warned and halted, with
	// replay --spend or --loop.
	Fuse *fuse.Outcome `json:"fuse,omitempty"`
}

// OrientationCheck is a session's own orientation (design §8: the
// context it acted at, what it spent before) beside the prior's forecast
// of a fresh session's from the session's first context, at its rates:
// fresh sessions stand in for successors.
type OrientationCheck struct {
	PredictedTokens int64   `json:"predicted_tokens"`
	PredictedUSD    float64 `json:"predicted_usd"`
	Tokens          int64   `json:"tokens"`
	CostUSD         float64 `json:"cost_usd"`
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
	// PredictedCompactUSD is what letting Claude Code compact would have
	// cost over the slice (null: it compacts past it, or no pricing).
	PredictedCompactUSD *float64 `json:"predicted_compact_usd,omitempty"`
	// Choice, Against and NetUSD are the pause's verdict (design §4.2),
	// as its notice said it: what the agent was told, the real
	// alternative to relaying, and what relaying saved over it (negative:
	// cost more); unset when pricing did not run.
	Choice  string   `json:"choice,omitempty"`
	Against string   `json:"against,omitempty"`
	NetUSD  *float64 `json:"net_usd,omitempty"`
	// ActualCarryOnUSD is what the session's own responses after the pause
	// cost, up to and including the first whose reading is at least the
	// pause's reading + 100,000: null when a compaction or an unpriced
	// response comes first, or the session ends.
	ActualCarryOnUSD *float64 `json:"actual_carry_on_usd"`
	// ActualRequests counts those responses (set with ActualCarryOnUSD).
	ActualRequests *int `json:"actual_requests,omitempty"`
}

// Point is one response after which the session went on Slice tokens
// without a compaction, an unpriced response or its end: what the cost
// model forecast there for carrying on over the slice, and what the
// session's own responses then cost, up to and including the first whose
// reading is at least the point's + 100,000. Costs split into cache
// reads, input and cache writes, and output.
type Point struct {
	Response            int     `json:"response"`
	Reading             int64   `json:"reading"`
	PredictedRequests   float64 `json:"predicted_requests"`
	ActualRequests      int     `json:"actual_requests"`
	PredictedCarryOnUSD float64 `json:"predicted_carry_on_usd"`
	ActualCarryOnUSD    float64 `json:"actual_carry_on_usd"`
	PredictedReadUSD    float64 `json:"predicted_read_usd"`
	ActualReadUSD       float64 `json:"actual_read_usd"`
	PredictedWriteUSD   float64 `json:"predicted_write_usd"`
	ActualWriteUSD      float64 `json:"actual_write_usd"`
	PredictedOutputUSD  float64 `json:"predicted_output_usd"`
	ActualOutputUSD     float64 `json:"actual_output_usd"`
	// Model is the model of the response, for the totals per model; not
	// in the JSON, whose points' fields others read.
	Model string `json:"-"`
}

// Verdicts count priced pauses by their verdict (design §4.2): by what
// the agent was told (Choices: "relay", "compact", "carry on"), by the
// real alternative to relaying (Against: "compact", "carry on"), and
// Costlier, those where relaying cost more than that alternative.
type Verdicts struct {
	Choices  map[string]int `json:"choices,omitempty"`
	Against  map[string]int `json:"against,omitempty"`
	Costlier int            `json:"costlier"`
}

// add counts one pause's verdict.
func (v *Verdicts) add(p *Pause) {
	if p.NetUSD == nil {
		return
	}
	if v.Choices == nil {
		v.Choices, v.Against = map[string]int{}, map[string]int{}
	}
	v.Choices[p.Choice]++
	v.Against[p.Against]++
	if *p.NetUSD < 0 {
		v.Costlier++
	}
}

// Totals sum the sessions.
type Totals struct {
	// The answer, which the report opens with. CostUSD is what the
	// PricedSessions with a price cost. ForecastSavingUSD is what relaying
	// at the ForecastPauses priced pauses would have saved by the
	// forecast, each against its real alternative (the verdict's net). Of
	// those, the CarryOnPoints after which the session went
	// on 100k tokens we could price are checked: CheckedSavingUSD is what
	// relaying there would have saved by what carrying on really cost
	// (the forecast's relay against the real carrying on), against
	// CheckedForecastUSD, what the forecast said at the same pauses.
	CostUSD            float64 `json:"cost_usd"`
	PricedSessions     int     `json:"priced_sessions"`
	ForecastSavingUSD  float64 `json:"forecast_saving_usd"`
	ForecastPauses     int     `json:"forecast_pauses"`
	CheckedSavingUSD   float64 `json:"checked_saving_usd"`
	CheckedForecastUSD float64 `json:"checked_forecast_usd"`

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
	// Rooms counts the room the pauses left before the automatic
	// compactions.
	Rooms RoomSummary `json:"rooms"`
	// Verdicts count the priced pauses by their verdict.
	Verdicts Verdicts `json:"verdicts"`
	// CarryOnPoints counts pauses with both a prediction and an actual.
	CarryOnPoints       int      `json:"carry_on_points"`
	PredictedCarryOnUSD *float64 `json:"predicted_carry_on_usd"`
	ActualCarryOnUSD    *float64 `json:"actual_carry_on_usd"`
	// PauseCarryOnMedianAbsError is the median of |predicted − actual| /
	// actual over those pauses: 0.07 means the model was off by 7%.
	PauseCarryOnMedianAbsError *float64 `json:"pause_carry_on_median_abs_error"`
	// Points counts the forecast's points over all sessions, and
	// CarryOnMedianAbsError is the median relative error over all of them;
	// RequestsMedianAbsError likewise for the requests a slice took.
	Points                 int      `json:"points"`
	CarryOnMedianAbsError  *float64 `json:"carry_on_median_abs_error"`
	RequestsMedianAbsError *float64 `json:"requests_median_abs_error"`
	// CarryOnByModel is CarryOnMedianAbsError per model, with its points.
	CarryOnByModel []ModelError `json:"carry_on_by_model,omitempty"`
	// Cold sums the sessions' cold re-writes and stops.
	Cold ColdTotals `json:"cold"`
	// Orientations counts the sessions with an OrientationCheck, and
	// OrientationTokensMedianAbsError and OrientationUSDMedianAbsError
	// are the medians of |predicted − actual| / actual over them (a
	// session that acted at once spent nothing: any forecast of it is
	// infinitely off; null when that is the median).
	Orientations                    int      `json:"orientations"`
	OrientationTokensMedianAbsError *float64 `json:"orientation_tokens_median_abs_error,omitempty"`
	OrientationUSDMedianAbsError    *float64 `json:"orientation_usd_median_abs_error,omitempty"`
}

// ColdTotals sum the cold events: the re-writes of more than
// ColdMinRewrite tokens after an idle past the TTL (how many, in how many
// sessions, the median idle and context, what they cost), and the prompts
// the stop would have held back with what a fresh session would have
// saved there. FalseStops counts stops whose response then wrote less
// than half its context: the cache was warmer than the TTL said.
type ColdTotals struct {
	Rewrites          int      `json:"rewrites"`
	RewriteSessions   int      `json:"rewrite_sessions"`
	RewriteUSD        float64  `json:"rewrite_usd"`
	MedianIdleSeconds *float64 `json:"median_idle_seconds"`
	MedianContext     *float64 `json:"median_context"`
	Stops             int      `json:"stops"`
	StopSessions      int      `json:"stop_sessions"`
	StopRewriteUSD    float64  `json:"stop_rewrite_usd"`
	SavingUSD         float64  `json:"saving_usd"`
	FalseStops        int      `json:"false_stops"`
}

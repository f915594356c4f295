package replay

// About is what is known of a session beyond its readings, as its ledger
// row would have it: when it started, on which branch, with which prompt,
// and what it cost in all (subagents included). The HTML report shows it
// in place of a bare session id.
type About struct {
	// Date is the day of the first response, YYYY-MM-DD.
	Date          string `json:"date,omitempty"`
	Branch        string `json:"branch,omitempty"`
	OpeningPrompt string `json:"opening_prompt,omitempty"`
	// SpentUSD is the whole session at API rates; nil when unpriced.
	SpentUSD *float64 `json:"spent_usd,omitempty"`
	// WindowTokens and CompactsAt are the session's context window and
	// where Claude Code compacts it on its own.
	WindowTokens int64 `json:"window_tokens,omitempty"`
	CompactsAt   int64 `json:"compacts_at,omitempty"`
}

// ReportInput is what context-budget-report reads: the replay, and by
// session path what is known about each session (absent: nothing more).
// The replay's own fields stay at the top level, so the output of replay
// --json --readings is a ReportInput too.
type ReportInput struct {
	Report
	About map[string]About `json:"about,omitempty"`
}

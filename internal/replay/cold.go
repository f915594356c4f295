package replay

import (
	"fmt"
	"strings"
	"time"

	"github.com/muthur/context-budget/internal/cold"
	"github.com/muthur/context-budget/internal/notice"
	"github.com/muthur/context-budget/internal/orientation"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/transcript"
	"github.com/muthur/context-budget/internal/tuning"
)

// ColdMinRewrite is the cache write, in tokens, past which a response
// after an idle beyond the TTL counts as a cold re-write: smaller writes
// are the usual growth of a turn, not a context written again.
const ColdMinRewrite = 50_000

// ColdEvent is one response after an idle past the cache's TTL that
// either re-wrote a big context, or would have been stopped by the
// UserPromptSubmit hook (design §14).
type ColdEvent struct {
	// Response is the index of the response that paid; Idle the seconds
	// from the response before it to the prompt (or tool result) that
	// sent it; Context the context it carried over from before; TTL the
	// cache's.
	Response    int    `json:"response"`
	IdleSeconds int64  `json:"idle_seconds"`
	Context     int64  `json:"context"`
	TTL         string `json:"ttl"`
	// Written is what the response wrote to the cache; RewriteUSD what
	// its input and writes cost, set when Written passed ColdMinRewrite.
	Written    int64   `json:"written"`
	RewriteUSD float64 `json:"rewrite_usd"`
	// Stop says that a user prompt sent the request and the hook would
	// have stopped it; SavingUSD is what a fresh session would have saved
	// there, by the model (the successor's reorientation estimated).
	Stop      bool    `json:"stop"`
	SavingUSD float64 `json:"saving_usd,omitempty"`
}

// ColdModel is what a Model offers to price a cold cache. PolicyModel
// does; a Model without it is never asked.
type ColdModel interface {
	// Cold checks the cache at now after the latest response r, with the
	// lines' decision at r's reading: the hook's check at a prompt.
	Cold(r reading.Reading, now time.Time) (f cold.Figures, isCold, priced bool, threshold float64)
}

// Cold implements ColdModel with the hook's decision and history.
func (m *PolicyModel) Cold(r reading.Reading, now time.Time) (cold.Figures, bool, bool, float64) {
	cs, err := tuning.ColdFromEnv(m.Getenv)
	if err != nil || cs.Mode == tuning.ColdOff || m.Settings.Fixed {
		return cold.Figures{}, false, false, 0
	}
	d := m.peek(r.Tokens)
	f, isCold, priced := cold.At(&d, &m.h, r, now)
	return f, isCold, priced, cs.SavingUSD
}

// coldWatch follows what came between two responses: when the last user
// prompt landed, and whether it is one the hook would look at. Tool
// results are skipped unread (they are most of a transcript's bytes), so
// after one the idle runs to the response itself, a few seconds long.
type coldWatch struct {
	last     *response // the latest evaluated response
	ttl1h    bool      // any response so far wrote the 1-hour cache
	sentAt   string    // timestamp of the latest user record since it
	prompted bool      // a prompt the hook would not pass untouched came since
}

// user notes a main-chain user record.
func (c *coldWatch) user(r *transcript.Record) {
	if r.IsSidechain || r.Timestamp == "" {
		return
	}
	c.sentAt = r.Timestamp
	if r.IsMeta || r.IsCompactSummary || r.Message == nil {
		return
	}
	if p, ok := orientation.PromptText(r.Message.Content); ok && !cold.Passes(p) {
		c.prompted = true
	}
}

// coldCheck looks at a new response r, after everything before it was
// evaluated: did it pay a cold re-write, and would the hook have stopped
// the prompt that sent it?
func (w *walker) coldCheck(r *transcript.Record) {
	c := &w.cold
	defer func() { c.sentAt, c.prompted = "", false }()
	prev := c.last
	u := r.Message.Usage
	if prev == nil || u == nil {
		return
	}
	t0, ok0 := cold.LastResponse(prev.time)
	sent := c.sentAt
	if sent == "" {
		sent = r.Timestamp
	}
	t1, ok1 := cold.LastResponse(sent)
	if !ok0 || !ok1 {
		return
	}
	ttl, ttlName := cold.TTL5m, "5m"
	if c.ttl1h || u.Write1h() > 0 {
		ttl, ttlName = cold.TTL1h, "1h"
	}
	idle := t1.Sub(t0)
	if idle < ttl {
		return
	}
	e := ColdEvent{Response: w.out.Responses, IdleSeconds: int64(idle / time.Second), Context: prev.reading,
		TTL: ttlName, Written: u.CacheCreationInputTokens}
	if e.Written > ColdMinRewrite && w.prices != nil {
		if cost, ok := w.prices.Cost(r.Message.Model, u.Speed, u); ok {
			e.RewriteUSD = cost.Write
		}
	}
	if cm, ok := w.model.(ColdModel); ok && c.prompted {
		f, isCold, priced, threshold := cm.Cold(reading.Reading{Tokens: prev.reading, Model: prev.model,
			Usage: prev.usage, Time: prev.time}, t1)
		if isCold && priced && f.Pays(threshold) {
			e.Stop, e.SavingUSD = true, f.SavingUSD
		}
	}
	if e.Written > ColdMinRewrite || e.Stop {
		w.out.Cold = append(w.out.Cold, e)
	}
}

// Words says the cold totals for a person, saying nothing of what did not
// happen: the re-writes and what they cost, then the prompts the stop
// would have held back and what a fresh session saves there; "" when
// neither came.
func (t ColdTotals) Words() string {
	var parts []string
	if t.Rewrites > 0 {
		part := fmt.Sprintf("%s of more than %s tokens in %s cost %s", notice.Count(t.Rewrites, "re-write"),
			notice.K(ColdMinRewrite), notice.Count(t.RewriteSessions, "session"), notice.USD(t.RewriteUSD))
		if t.MedianIdleSeconds != nil && t.MedianContext != nil {
			part += fmt.Sprintf(" (median idle %s, median context %s)",
				(time.Duration(*t.MedianIdleSeconds) * time.Second).Round(time.Second), notice.K(int64(*t.MedianContext)))
		}
		parts = append(parts, part)
	}
	if t.Stops > 0 {
		part := fmt.Sprintf("the stop would have held back %s in %s (their re-writes %s), where a fresh session saves %s over the next 100k tokens by the forecast",
			notice.Count(t.Stops, "prompt"), notice.Count(t.StopSessions, "session"), notice.USD(t.StopRewriteUSD), notice.USD(t.SavingUSD))
		if t.FalseStops > 0 {
			part += fmt.Sprintf("; %d of them found the cache warm after all", t.FalseStops)
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "; ")
}

// Package cold prices the first prompt after a session's prompt cache
// expired, and decides whether to stop it (design §14).
//
// A session idle past its cache TTL pays, on its next request, a write of
// its whole context before any work: (C − P)·w + P·r, with P the prefix
// other sessions keep warm (its first response's cache read). A /relay
// pays it too; only a fresh session that picks the work up from the
// branch skips it. So the decision is made on the user's next prompt,
// before it is sent. A warm cache ends the check at the last response's
// timestamp; only a cold one pays for the line cache and git.
package cold

import (
	"time"

	"github.com/muthur/context-budget/internal/forecast"
	"github.com/muthur/context-budget/internal/lines"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/internal/tuning"
)

// The cache's times to live.
const (
	TTL5m = 5 * time.Minute
	TTL1h = time.Hour
)

// Figures are what a cold cache costs and what a fresh session would
// save, in USD.
type Figures struct {
	// Idle is the time since the last response; TTL the session's cache
	// time to live ("5m" or "1h").
	Idle time.Duration `json:"idle_ns"`
	TTL  string        `json:"ttl"`
	// Context is C, the context the next request re-writes; Prefix is P,
	// the part of it other sessions keep warm.
	Context int64 `json:"context"`
	Prefix  int64 `json:"prefix"`
	// RecacheUSD is the re-write: (C − P)·w + P·r.
	RecacheUSD float64 `json:"recache_usd"`
	// CarryOnUSD is the re-write and then the slice, the first request of
	// which is the re-write itself; FreshUSD is a fresh session's
	// reorientation and then the slice from its context W; SavingUSD is
	// their difference.
	CarryOnUSD float64 `json:"carry_on_usd"`
	FreshUSD   float64 `json:"fresh_usd"`
	SavingUSD  float64 `json:"saving_usd"`
	// Reorientation is the fresh session's, from the policy's sources.
	Reorientation lines.Reorientation `json:"reorientation"`
}

// Pays reports whether stopping the prompt is worth it at threshold usd:
// a fresh session saves at least usd, and the re-write alone costs at
// least that much (a cheap re-write is not worth an interruption, however
// the slice comes out).
func (f Figures) Pays(usd float64) bool {
	return f.SavingUSD >= usd && f.RecacheUSD >= usd
}

// Price prices a cold cache at context c from the policy's decision d and
// the session's first response, whose cache read is the shared prefix P;
// ok is false when pricing did not run. Carrying on pays the re-write and
// then the slice less its first request's read of C (that request is the
// re-write); a fresh session pays its reorientation R and the slice from
// W, with no summary turn: the work is on the branch.
func Price(d *lines.Decision, first *forecast.Response, c int64) (f Figures, ok bool) {
	if !d.Priced || first == nil || c <= 0 {
		return Figures{}, false
	}
	m := d.At(c)
	p := min(max(first.CacheRead, 0), c)
	f.Context, f.Prefix, f.TTL = c, p, d.TTL
	f.RecacheUSD = Recache(m.Rates, c, p)
	f.CarryOnUSD = f.RecacheUSD - float64(c)*m.Read + m.CarryOn(c)
	w := d.Reorientation.Tokens
	f.FreshUSD = d.Reorientation.CostUSD + d.At(w).CarryOn(w)
	f.SavingUSD = f.CarryOnUSD - f.FreshUSD
	f.Reorientation = d.Reorientation
	return f, true
}

// Recache is the cost of re-writing context c to a cold cache of which
// prefix p is still warm: (C − P)·w + P·r.
func Recache(rt restart.Rates, c, p int64) float64 {
	return float64(c-p)*rt.Write + float64(p)*rt.Read
}

// LastResponse parses a response's timestamp; ok is false when it has
// none that reads.
func LastResponse(stamp string) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, stamp)
	return t, err == nil
}

// MayBeCold reports whether the response of reading r is old enough at
// now for the session's cache to have gone cold: older than the shortest
// lifetime, TTL5m. A response with no timestamp that reads is not.
func MayBeCold(r reading.Reading, now time.Time) bool {
	last, ok := LastResponse(r.Time)
	return ok && now.Sub(last) >= TTL5m
}

// look checks at c.Now a session whose last response, r, is old enough
// for its cache to be cold (MayBeCold): whether it is, and its figures;
// priced is false when it cannot be priced. dir is its state folder,
// transcript what stands for its transcript, s its settings. A
// compaction since the last response is no cold re-write of its context.
func (c Call) look(dir, transcript string, s tuning.Settings, r reading.Reading) (f Figures, isCold, priced bool) {
	if CompactedSince(transcript) {
		return Figures{}, false, false
	}
	// Pricing runs whatever MUTHUR_CONTEXT_BUDGET_LINES says: fixed lines
	// are about where the notices fire, not about what a re-write costs.
	s.Fixed = false
	ls := &lines.Call{Dir: dir, ID: c.Payload.SessionID, Root: c.Root, Transcript: transcript,
		Settings: s, Getenv: c.Getenv, Reading: r.Tokens, RequestedModel: r.RequestedModel, Version: r.Version}
	// The lines the hook holds, decided without saving: a prompt must not
	// move the cache the PostToolUse notices come from.
	e := lines.Peek(ls)
	return At(&e.Decision, &forecast.History{First: e.First, TTL1h: e.TTL1h}, r, c.Now)
}

// At is the check on figures already at hand: the policy's decision d at
// reading r and the transcript's history h (for the TTL and the first
// response). `lines` and replay call it; the prompt's check, with the line
// cache's.
func At(d *lines.Decision, h *forecast.History, r reading.Reading, now time.Time) (f Figures, isCold, priced bool) {
	last, ok := LastResponse(r.Time)
	if !ok {
		return Figures{}, false, false
	}
	idle := now.Sub(last)
	ttl := TTL5m
	// Any 1-hour write means the 1-hour cache, as the history decides.
	if r.Usage.Write1h() > 0 || (h != nil && h.TTL1h) {
		ttl = TTL1h
	}
	if idle < ttl {
		return Figures{}, false, false
	}
	var first *forecast.Response
	if h != nil {
		first = h.First
	}
	f, priced = Price(d, first, r.Tokens)
	f.Idle = idle
	if ttl == TTL1h {
		f.TTL = "1h"
	} else if f.TTL == "" {
		f.TTL = "5m"
	}
	return f, true, priced
}

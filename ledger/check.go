package ledger

import (
	"errors"
	"fmt"
	"math"
)

// Bounds a row's figures must keep to be read. A row is committed and
// shared, so it is input like any other: one with a context of 2⁶² tokens
// or a cost of 1e308 must not move anyone's lines, and sums of rows must
// not overflow.
const (
	// MaxContextTokens bounds one context (a phase's ContextTokens, a
	// compaction's PreTokens): far past any model's window.
	MaxContextTokens = 10_000_000
	// MaxTallyTokens bounds each token count of a tally: a session's
	// cache reads add up over its responses, yet a million sessions at
	// the bound still sum within an int64.
	MaxTallyTokens = 1_000_000_000_000
	// MaxResponses bounds a tally's responses.
	MaxResponses = 100_000_000
	// MaxCostUSD bounds a tally's dollars.
	MaxCostUSD = 10_000_000
	// MaxPlace bounds a session's place in its chain, and MaxChain the
	// length of the chain's id: a runner starts a few sessions, and its
	// ids are UUIDs.
	MaxPlace = 1_000_000
	MaxChain = 128
	// MaxHalts bounds a row's halts, and MaxHaltText each of their
	// strings.
	MaxHalts    = 64
	MaxHaltText = 1024
	// MaxNotices bounds a row's notices (one per level per climb), and
	// MaxNoticeText each of their strings (a level, a model's name, a
	// verdict's words); MaxAuthor the author's email.
	MaxNotices    = 256
	MaxNoticeText = 128
	MaxAuthor     = 256
)

// ErrRange reports a row whose figures are outside what a session can
// have: negative, not finite, or past the bounds above.
var ErrRange = errors.New("a figure out of range")

// Check reports whether the row's figures are in range: every count and
// cost finite, non-negative and within its bound. Parse refuses a row that
// fails it (the Reader skips and counts it), and the writer checks what it
// priced before writing (see Sanitize).
func (r *Row) Check() error {
	if r.Place < 0 || r.Place > MaxPlace {
		return fmt.Errorf("%w: place %d", ErrRange, r.Place)
	}
	if len(r.Chain) > MaxChain {
		return fmt.Errorf("%w: a chain id of %d bytes", ErrRange, len(r.Chain))
	}
	if len(r.Halts) > MaxHalts {
		return fmt.Errorf("%w: %d halts", ErrRange, len(r.Halts))
	}
	for _, h := range r.Halts {
		if max(len(h.Reason), len(h.Cap), len(h.At), len(h.Words)) > MaxHaltText {
			return fmt.Errorf("%w: a halt's text of more than %d bytes", ErrRange, MaxHaltText)
		}
	}
	if len(r.Author) > MaxAuthor {
		return fmt.Errorf("%w: an author of %d bytes", ErrRange, len(r.Author))
	}
	if len(r.Notices) > MaxNotices {
		return fmt.Errorf("%w: %d notices", ErrRange, len(r.Notices))
	}
	for i := range r.Notices {
		if err := r.Notices[i].Check(); err != nil {
			return fmt.Errorf("notice %d: %w", i, err)
		}
	}
	if r.ClaudeCodeTotalUSD != nil && !CostOK(*r.ClaudeCodeTotalUSD) {
		return fmt.Errorf("%w: claudeCodeTotalUsd %v", ErrRange, *r.ClaudeCodeTotalUSD)
	}
	for name, t := range map[string]Tally{"total": r.Total, "ownTurns": r.OwnTurns, "subagents": r.Subagents} {
		if err := t.Check(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	for k, t := range r.ByRate {
		if err := t.Check(); err != nil {
			return fmt.Errorf("byRate %s: %w", k, err)
		}
	}
	if r.Orientation != nil {
		if err := r.Orientation.Check(); err != nil {
			return fmt.Errorf("orientation: %w", err)
		}
	}
	for i := range r.Compactions {
		c := &r.Compactions[i]
		if c.PreTokens < 0 || c.PreTokens > MaxContextTokens {
			return fmt.Errorf("compaction %d: %w: preTokens %d", i, ErrRange, c.PreTokens)
		}
		if c.Window < 0 || c.Window > MaxContextTokens {
			return fmt.Errorf("compaction %d: %w: window %d", i, ErrRange, c.Window)
		}
		if err := c.Phase.Check(); err != nil {
			return fmt.Errorf("compaction %d: %w", i, err)
		}
	}
	return nil
}

// Check reports whether the notice's figures and words are in range:
// tokens within MaxContextTokens, the verdict's dollars finite and within
// MaxCostUSD either way, every string within MaxNoticeText.
func (n *Notice) Check() error {
	for _, t := range []int64{n.Reading, n.Warn, n.Pause} {
		if t < 0 || t > MaxContextTokens {
			return fmt.Errorf("%w: %d tokens", ErrRange, t)
		}
	}
	words := []string{n.Level, n.At, n.Model}
	if v := n.Verdict; v != nil {
		if !CostOK(math.Abs(v.NetUSD)) {
			return fmt.Errorf("%w: netUsd %v", ErrRange, v.NetUSD)
		}
		words = append(words, v.Choice, v.Against, v.Policy)
	}
	for _, w := range words {
		if len(w) > MaxNoticeText {
			return fmt.Errorf("%w: a notice's text of more than %d bytes", ErrRange, MaxNoticeText)
		}
	}
	return nil
}

// Check reports whether the phase's context and spend are in range.
func (p *Phase) Check() error {
	if p.ContextTokens < 0 || p.ContextTokens > MaxContextTokens {
		return fmt.Errorf("%w: contextTokens %d", ErrRange, p.ContextTokens)
	}
	return p.Spend.Check()
}

// Check reports whether every figure of the tally is in range.
func (t Tally) Check() error {
	for _, n := range []int64{t.InputTokens, t.CacheWrite5mTokens, t.CacheWrite1hTokens, t.CacheReadTokens, t.OutputTokens} {
		if n < 0 || n > MaxTallyTokens {
			return fmt.Errorf("%w: %d tokens", ErrRange, n)
		}
	}
	if t.Responses < 0 || t.Responses > MaxResponses {
		return fmt.Errorf("%w: %d responses", ErrRange, t.Responses)
	}
	if !CostOK(t.CostUSD) {
		return fmt.Errorf("%w: costUsd %v", ErrRange, t.CostUSD)
	}
	return nil
}

// CostOK reports whether usd can be a cost in a row: finite, non-negative
// and within MaxCostUSD.
func CostOK(usd float64) bool {
	return !math.IsNaN(usd) && usd >= 0 && usd <= MaxCostUSD
}

// Sanitize makes a row that is about to be written fit Check, so a price
// table gone wrong (a NaN or an infinity from an override) can never stop
// a row from being written: every cost that is not in range is set to 0
// and the row says so in a warning. Token counts come from the
// transcript's integers and are clamped into range the same way. A chain
// and place out of range are dropped: the row then reads as a session
// that ran on its own. It reports whether anything was changed.
func (r *Row) Sanitize() bool {
	changed := false
	fix := func(t *Tally) {
		for _, n := range []*int64{&t.InputTokens, &t.CacheWrite5mTokens, &t.CacheWrite1hTokens, &t.CacheReadTokens, &t.OutputTokens} {
			if *n < 0 || *n > MaxTallyTokens {
				*n, changed = min(max(*n, 0), MaxTallyTokens), true
			}
		}
		if t.Responses < 0 || t.Responses > MaxResponses {
			t.Responses, changed = min(max(t.Responses, 0), MaxResponses), true
		}
		if !CostOK(t.CostUSD) {
			t.CostUSD, changed = 0, true
		}
	}
	ctx := func(n *int64) {
		if *n < 0 || *n > MaxContextTokens {
			*n, changed = min(max(*n, 0), MaxContextTokens), true
		}
	}
	if r.ClaudeCodeTotalUSD != nil && !CostOK(*r.ClaudeCodeTotalUSD) {
		r.ClaudeCodeTotalUSD, changed = nil, true
	}
	r.EachTally(fix)
	if r.Orientation != nil {
		ctx(&r.Orientation.ContextTokens)
	}
	for i := range r.Compactions {
		ctx(&r.Compactions[i].PreTokens)
		ctx(&r.Compactions[i].Window)
		ctx(&r.Compactions[i].ContextTokens)
	}
	if changed {
		r.Warnings = append(r.Warnings, "figures out of range (not finite, negative or too large) were written as 0 or clamped: check the price table")
	}
	if r.Place < 0 || r.Place > MaxPlace || len(r.Chain) > MaxChain {
		r.Chain, r.Place, changed = "", 0, true
	}
	if len(r.Halts) > MaxHalts {
		r.Halts, changed = r.Halts[len(r.Halts)-MaxHalts:], true
	}
	for i := range r.Halts {
		for _, s := range []*string{&r.Halts[i].Reason, &r.Halts[i].Cap, &r.Halts[i].At, &r.Halts[i].Words} {
			if len(*s) > MaxHaltText {
				*s, changed = (*s)[:MaxHaltText], true
			}
		}
	}
	if len(r.Author) > MaxAuthor {
		r.Author, changed = "", true
	}
	// Notices that do not fit are dropped, the latest kept.
	kept := r.Notices[:0]
	for _, n := range r.Notices {
		if n.Check() == nil {
			kept = append(kept, n)
		}
	}
	if len(kept) > MaxNotices {
		kept = kept[len(kept)-MaxNotices:]
	}
	if len(kept) != len(r.Notices) {
		changed = true
	}
	r.Notices = kept
	if len(r.Notices) == 0 {
		r.Notices = nil
	}
	return changed
}

// EachTally calls f on every tally of the row: the totals, each rate's,
// the orientation's spend and each compaction's.
func (r *Row) EachTally(f func(*Tally)) {
	for _, t := range []*Tally{&r.Total, &r.OwnTurns, &r.Subagents} {
		f(t)
	}
	for k, t := range r.ByRate {
		f(&t)
		r.ByRate[k] = t
	}
	if r.Orientation != nil {
		f(&r.Orientation.Spend)
	}
	for i := range r.Compactions {
		f(&r.Compactions[i].Spend)
	}
}

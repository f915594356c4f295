package restart

// Compaction is what Claude Code's own compaction does to a session's
// context (design §4.2), in tokens and requests, so that it is priced at
// any model's rates: fitted on real sessions' automatic compactions
// (tools/fit; the shipped figures are forecast.Shipped.Compaction).
type Compaction struct {
	// PostShare is the context of the first request after a compaction
	// as a share of the context compacted: the summary, what Claude Code
	// re-attaches and the fixed overhead (compact_boundary's postTokens
	// counts the conversation only).
	PostShare float64 `json:"post_share"`
	// FreshShare is the share of that context the first request writes
	// to the cache; the rest (the system prompt and tools) it reads.
	FreshShare float64 `json:"fresh_share"`
	// Requests and Growth are the re-orientation after it: the requests
	// after the first before the session acts again, and the context
	// they add.
	Requests float64 `json:"requests"`
	Growth   float64 `json:"growth"`
}

// Compact is what letting Claude Code compact costs over the slice from
// context c, when it compacts at point: carrying on to the point, the
// summary request (it reads the context and writes a summary, priced as
// the relay's summary turn), the first request after it at the smaller
// context, the re-orientation, and the rest of the slice from there.
// ok is false when the compaction lies past the slice: carrying on is
// then the same thing.
func (m Model) Compact(c, point int64, k Compaction) (usd float64, ok bool) {
	if point <= 0 || c+Slice <= point {
		return 0, false
	}
	g := max(point-c, 0)
	pre := max(point, c)
	summary := float64(pre)*m.Read + m.O()
	return m.Over(c, g) + summary + m.CompactEpisode(pre, k) + m.Over(k.After(pre), Slice-g), true
}

// After is the context a session carries once it has re-oriented after a
// compaction of pre tokens.
func (k Compaction) After(pre int64) int64 {
	return int64(k.PostShare*float64(pre) + k.Growth)
}

// CompactEpisode is the part of Compact a transcript shows: the first
// request after a compaction at pre tokens and the re-orientation (the
// summary request itself is not in the transcripts the fit reads).
func (m Model) CompactEpisode(pre int64, k Compaction) float64 {
	k0 := k.PostShare * float64(pre)
	fresh := k.FreshShare * k0
	return fresh*m.Write + (k0-fresh)*m.Read + (1+k.Requests)*m.OutPerRequest*m.Output +
		k.Requests*m.Read*(k0+k.Growth/2) + k.Growth*m.Write
}

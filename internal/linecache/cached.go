package linecache

import "github.com/muthur/context-budget/internal/policy"

// Cached returns the Decision the session's cache holds, when it was made
// under the Key s has now, whatever the reading: the status line shows
// the lines the hook last decided and never prices on its own (the hook
// keeps the cache fresh after every tool call). ok is false when there is
// no such cache.
func Cached(s *Session) (d policy.Decision, ok bool) {
	c, ok := load(FileName(s.Dir, s.ID))
	if !ok || c.Key != s.Key() {
		return policy.Decision{}, false
	}
	return c.Decision, true
}

// The history is the incremental forward pass over a session's transcript
// that the priced lines need (design §4). Update resumes from the History's
// reading.Mark, so a recompute reads only what Claude Code appended since;
// replay feeds records one at a time. A History round-trips through JSON:
// the line cache stores it. Own responses are main-chain assistant records
// with usage (transcript.Record.IsResponse); the records sharing a
// message.id are one response, and the last of them is kept.

package forecast

import (
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/restart"
	"github.com/muthur/context-budget/internal/transcript"
)

// Response is what the history keeps of one response.
type Response struct {
	ID    string `json:"id,omitempty"`
	Model string `json:"model,omitempty"`
	Speed string `json:"speed,omitempty"`
	// Context is the tokens of context its request carried; CacheRead
	// the part of it read from the cache.
	Context   int64 `json:"context"`
	CacheRead int64 `json:"cache_read"`
}

// History is the state of the pass.
type History struct {
	// Mark is how far the transcript has been read: the end of the last
	// complete line, and a check that the file is still the one read.
	reading.Mark
	// Responses counts own responses in the whole transcript.
	Responses int `json:"responses"`
	// First and Last are the session's first and latest own responses.
	First *Response `json:"first,omitempty"`
	Last  *Response `json:"last,omitempty"`
	// Since is the first own response after the latest boundary (the
	// session's first response when there was none); Requests counts the
	// responses from it on, itself included. Both are reset by a boundary.
	Since    *Response `json:"since,omitempty"`
	Requests int       `json:"requests"`
	// Boundaries counts compact and microcompact boundaries, Compactions
	// the compact ones alone.
	Boundaries  int `json:"boundaries"`
	Compactions int `json:"compactions,omitempty"`
	// TTL1h is set when any own response wrote to the 1-hour cache.
	TTL1h bool `json:"ttl_1h"`
	// Acted is set once an own response acted (transcript.Message.Acts:
	// it ended a turn, edited, asked or left plan mode): the session
	// found its feet at least once.
	Acted bool `json:"acted,omitempty"`
	// Peak is the largest context of any own response.
	Peak int64 `json:"peak"`
	// Window1M is set when the transcript says the 1M window is on: a
	// requestedModel with a [1m] suffix, or an api-request record whose
	// betas include context-1m-….
	Window1M bool `json:"window_1m"`
	// AutoCompactAt is the preTokens of the latest automatic compaction:
	// evidence of where Claude Code compacts this session.
	AutoCompactAt int64 `json:"auto_compact_at,omitempty"`
	// Pace is the session's measured pace, the forecast's input.
	Pace Pace `json:"pace"`
	// Version is the Claude Code version of the latest own response:
	// where it compacts depends on it.
	Version string `json:"version,omitempty"`
}

// Add takes one decoded record into the history and reports whether it was
// an own response (so a caller replaying the transcript knows when the
// reading moved).
func (h *History) Add(r *transcript.Record) bool {
	switch {
	case r.IsBoundary():
		h.Boundaries++
		if r.Subtype == "compact_boundary" {
			h.Compactions++
		}
		h.Since, h.Requests = nil, 0
		h.Pace.Boundary()
		if m := r.CompactMetadata; m != nil && r.Subtype == "compact_boundary" && m.Trigger == "auto" && m.PreTokens > 0 {
			h.AutoCompactAt = m.PreTokens
		}
		return false
	case !r.IsResponse():
		return false
	}
	msg := r.Message
	u := msg.Usage
	if r.Version != "" {
		h.Version = r.Version
	}
	resp := &Response{ID: msg.ID, Model: msg.Model, Speed: u.Speed,
		Context: u.Context(), CacheRead: u.CacheReadInputTokens}
	if transcript.Asks1M(r.RequestedModel) {
		h.Window1M = true
	}
	if u.Write1h() > 0 {
		h.TTL1h = true
	}
	h.Peak = max(h.Peak, resp.Context)
	h.Acted = h.Acted || msg.Acts()
	if h.Last != nil && resp.ID != "" && resp.ID == h.Last.ID {
		// Another record of the latest response: keep the last record.
		h.Pace.Response(resp.Context, u.CacheCreationInputTokens, u.OutputTokens, msg.Acts(), true)
		h.Last = resp
		if h.Since != nil && h.Since.ID == resp.ID {
			h.Since = resp
		}
		if h.First.ID == resp.ID {
			h.First = resp
		}
		return true
	}
	h.Responses++
	h.Pace.Response(resp.Context, u.CacheCreationInputTokens, u.OutputTokens, msg.Acts(), false)
	if h.First == nil {
		h.First = resp
	}
	if h.Since == nil {
		h.Since = resp
		h.Requests = 0
	}
	h.Requests++
	h.Last = resp
	return true
}

// Growth is the context gained since the latest boundary, measured from
// the first own response after it.
func (h *History) Growth() int64 {
	if h.Since == nil || h.Last == nil {
		return 0
	}
	return h.Last.Context - h.Since.Context
}

// Q is the requests per token of growth: (requests − 1) / growth once the
// growth since the latest boundary reaches restart.MinGrowth, else the
// default restart.RequestsPerToken.
func (h *History) Q() float64 {
	if !h.Measured() {
		return restart.RequestsPerToken
	}
	return float64(h.Requests-1) / float64(h.Growth())
}

// Measured reports whether Q was measured rather than defaulted.
func (h *History) Measured() bool {
	return h.Growth() >= restart.MinGrowth && h.Requests >= 2
}

// TTL names the session's cache time to live: "1h" or "5m".
func (h *History) TTL() string {
	if h.TTL1h {
		return "1h"
	}
	return "5m"
}

// AddLine decodes one transcript line (without its newline) into the
// history and reports whether it held an own response. Lines without a
// filter word are skipped undecoded.
func (h *History) AddLine(line []byte) bool {
	if !transcript.MayHoldHistory(line) {
		return false
	}
	resp := false
	transcript.Decode(line, func(r *transcript.Record) {
		resp = h.AddRecord(r, line) || resp
	})
	return resp
}

// AddRecord takes one decoded record of line into the history, as Add
// does, and also notes the 1M window an api-request record's betas name
// (which the decoded record does not keep). It reports whether r was an
// own response.
func (h *History) AddRecord(r *transcript.Record, line []byte) bool {
	if transcript.Says1M(r, line) {
		h.Window1M = true
	}
	return h.Add(r)
}

// Update brings h up to date with the transcript at path, reading on
// from h.Mark. A file replaced or truncated is read again from its start,
// the history with it.
func (h *History) Update(path string) error {
	_, err := h.UpdateSome(path, 0)
	return err
}

// UpdateSome is Update reading at most about limit bytes of the
// transcript (limit ≤ 0: no limit), so that no single call pays for a
// whole large file: the next call resumes from h.Mark. It reports whether
// the pass reached the end of the file.
func (h *History) UpdateSome(path string, limit int64) (caughtUp bool, err error) {
	pass := reading.Pass{Limit: limit}
	return pass.Read(path, &h.Mark, func() { *h = History{} }, func(line []byte) bool {
		h.AddLine(line)
		return true
	})
}

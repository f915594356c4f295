package replay

import (
	"slices"

	"github.com/muthur/context-budget/internal/window"
)

// Room is what the pause left before one compaction: the first pause of
// the climb that ended in it, and the tokens and responses between the
// pause's reading and the compaction's preTokens.
type Room struct {
	// Boundary is the compaction's index in Session.Boundaries.
	Boundary int `json:"boundary"`
	// Trigger is the compaction's trigger ("auto", "manual").
	Trigger string `json:"trigger"`
	// PreTokens is the context the compaction found.
	PreTokens int64 `json:"pre_tokens"`
	// Paused reports whether a pause fired in the climb; the rest is zero
	// when it did not.
	Paused bool `json:"paused"`
	// PauseResponse and PauseReading are the pause's response and reading.
	PauseResponse int   `json:"pause_response,omitempty"`
	PauseReading  int64 `json:"pause_reading,omitempty"`
	// Tokens is PreTokens − PauseReading; Responses the responses after
	// the pause's up to the compaction.
	Tokens    int64 `json:"tokens"`
	Responses int   `json:"responses"`
}

// Enough reports whether the pause left window.EnoughRoom, what the
// relay needs.
func (r Room) Enough() bool { return r.Paused && r.Tokens >= window.EnoughRoom }

// Rooms returns the room before each compaction (compact_boundary; not
// the microcompactions) of a session, from its notices and boundaries. A
// climb runs from the previous compaction (or the start) to this one.
func Rooms(notices []Notice, boundaries []Boundary) []Room {
	out := []Room{}
	prev := -1
	for i, b := range boundaries {
		if b.Kind != "compact" {
			continue
		}
		r := Room{Boundary: i, Trigger: b.Trigger, PreTokens: b.PreTokens}
		if k := slices.IndexFunc(notices, func(n Notice) bool {
			return n.Level == "pause" && n.Response > prev && n.Response <= b.AfterResponse
		}); k >= 0 {
			n := notices[k]
			r.Paused, r.PauseResponse, r.PauseReading = true, n.Response, n.Reading
			r.Tokens, r.Responses = b.PreTokens-n.Reading, b.AfterResponse-n.Response
		}
		out = append(out, r)
		prev = b.AfterResponse
	}
	return out
}

// RoomSummary counts the rooms of automatic compactions.
type RoomSummary struct {
	// Auto counts automatic compactions; Paused those with a pause in
	// their climb; Enough those whose pause left window.EnoughRoom; Short those
	// with less (no pause included).
	Auto   int `json:"auto_compactions"`
	Paused int `json:"paused"`
	Enough int `json:"enough_room"`
	Short  int `json:"short_of_room"`
	// MedianTokens and MedianResponses are the medians over the paused.
	MedianTokens    int64   `json:"median_room_tokens"`
	MedianResponses float64 `json:"median_room_responses"`
}

// SummarizeRooms counts rooms of automatic compactions.
func SummarizeRooms(rooms []Room) RoomSummary {
	var s RoomSummary
	var toks, resp []float64
	for _, r := range rooms {
		if r.Trigger != "auto" {
			continue
		}
		s.Auto++
		if r.Enough() {
			s.Enough++
		} else {
			s.Short++
		}
		if r.Paused {
			s.Paused++
			toks = append(toks, float64(r.Tokens))
			resp = append(resp, float64(r.Responses))
		}
	}
	if len(toks) > 0 {
		s.MedianTokens = int64(Median(toks))
		s.MedianResponses = Median(resp)
	}
	return s
}

package window

import (
	"slices"
	"time"
)

// Compaction is one automatic compaction of another session: where the
// user's sessions show Claude Code compacting (design §4.1).
type Compaction struct {
	// At is the compact_boundary record's timestamp (RFC 3339).
	At string `json:"at"`
	// Version is the Claude Code version that compacted, Window the
	// session's window then (Standard or OneM).
	Version string `json:"version"`
	Window  int64  `json:"window"`
	// PreTokens is the context Claude Code compacted.
	PreTokens int64  `json:"pre_tokens"`
	Session   string `json:"session"`
	// Row says it came from a committed ledger row, not a transcript.
	Row bool `json:"row,omitempty"`
}

// Observation is the point the user's other sessions give a version and
// window, and what it rests on.
type Observation struct {
	At                    int64
	Compactions, Sessions int
	// Source is PointSessions or PointRows.
	Source string
}

// Latest keeps of seen what Learn can use as it stood before the time
// before: for each window, and for transcripts and rows apart, the
// LatestCount latest, by the records' times.
func Latest(seen []Compaction, before string) []Compaction {
	type key struct {
		window int64
		row    bool
	}
	limit, hasLimit := parseTime(before)
	groups := map[key][]Compaction{}
	for _, c := range seen {
		if at, ok := parseTime(c.At); !ok || hasLimit && !at.Before(limit) || c.PreTokens <= 0 {
			continue
		}
		k := key{c.Window, c.Row}
		groups[k] = append(groups[k], c)
	}
	var out []Compaction
	for _, g := range groups {
		sortLatest(g)
		out = append(out, g[:min(len(g), LatestCount)]...)
	}
	sortLatest(out)
	return out
}

// sortLatest sorts compactions latest first.
func sortLatest(cs []Compaction) {
	slices.SortStableFunc(cs, func(a, b Compaction) int {
		ta, _ := parseTime(a.At)
		tb, _ := parseTime(b.At)
		return tb.Compare(ta)
	})
}

// LatestCount is how many of the latest compactions the point is taken from:
// enough that one request that jumped far past the threshold does not set
// it alone, few enough to follow a threshold tuned server-side.
const LatestCount = 5

// Rows' bounds (design §4.1, as any committed figure): a point taken from
// ledger rows lies within RowsReach of the table's point for a version the
// table knows, and not below half the window.
const RowsReach = 20_000

// Learn is the point the user's other sessions give version and window
// before the time before ("" or unparsable: all): the lowest preTokens of
// their latest LatestCount automatic compactions. Rows count only when no
// transcript has one, bounded by RowsReach and half the window. ok is
// false when none matches.
func Learn(seen []Compaction, version string, window int64, before string, t *Table) (Observation, bool) {
	var mine []Compaction
	for _, c := range seen {
		if c.Version == version && c.Window == window {
			mine = append(mine, c)
		}
	}
	mine = Latest(mine, before)
	pick := func(rows bool) []Compaction {
		var out []Compaction
		for _, c := range mine {
			if c.Row == rows {
				out = append(out, c)
			}
		}
		return out
	}
	src := PointSessions
	got := pick(false)
	if len(got) == 0 {
		src, got = PointRows, pick(true)
	}
	if len(got) == 0 {
		return Observation{}, false
	}
	o := Observation{At: got[0].PreTokens, Compactions: len(got), Source: src}
	sessions := map[string]bool{}
	for _, c := range got {
		o.At = min(o.At, c.PreTokens)
		sessions[c.Session] = true
	}
	o.Sessions = len(sessions)
	if src == PointRows {
		lo, hi := window/2, window
		if r, ok := t.Lookup(version); ok {
			p := window - r.Below
			lo, hi = max(lo, p-RowsReach), min(hi, p+RowsReach)
		}
		o.At = min(max(o.At, lo), hi)
	}
	return o, true
}

func parseTime(s string) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

// WindowAt is the window a compaction at preTokens was taken on, given
// whether its session had shown the 1M window before it.
func WindowAt(preTokens int64, saw1M bool) int64 {
	if saw1M || preTokens > Standard {
		return OneM
	}
	return Standard
}

package window

import (
	"slices"
	"strconv"
	"strings"
)

// Sources of the compaction point, first that has it (design §4.1).
const (
	// PointEnv: CLAUDE_AUTOCOMPACT_PCT_OVERRIDE or
	// CLAUDE_CODE_AUTO_COMPACT_WINDOW is set.
	PointEnv = "env"
	// PointSettings: autoCompactWindow in Claude Code's settings files.
	PointSettings = "settings"
	// PointSession: an automatic compaction earlier in this session.
	PointSession = "session"
	// PointSessions: automatic compactions in the transcripts of the
	// user's other sessions of the same Claude Code version and window.
	PointSessions = "sessions"
	// PointRows: automatic compactions the ledger's rows record, where
	// no transcript showed one; bounded as any committed figure.
	PointRows = "ledger"
	// PointTable: the shipped table of Claude Code versions (Fitted).
	PointTable = "table"
	// PointDefault: nothing known; the lowest point any version showed.
	PointDefault = "default"
)

// Range is one row of the shipped table: Claude Code versions From to To
// (inclusive) compact a window at Below tokens under its size.
type Range struct {
	From, To string
	Below    int64
	// Compactions and Sessions count the automatic compactions the row
	// was fitted on and the sessions they came from; 0 for a row measured
	// otherwise (Measured says how).
	Compactions, Sessions int
	Measured              string
}

// Table is the shipped knowledge of where Claude Code compacts, fitted on
// real sessions (see fitted.go and fit_test.go).
type Table struct {
	// Ranges are sorted by version and do not overlap.
	Ranges []Range
	// DefaultBelow is the conservative default: the largest Below of any
	// row, for a version the table does not know.
	DefaultBelow int64
	// StepAllowance is how far past a line the reading that crosses it
	// lands: the size-biased 90th percentile of the step from one tool
	// call's reading to the next near the compaction point. The pause
	// line sits EnoughRoom plus this much under the point.
	StepAllowance int64
	// Steps counts the steps StepAllowance was fitted on.
	Steps int
}

// Shipped returns the table this build carries.
func Shipped() *Table { return &fitted }

// Lookup returns the row that covers version. A version between two rows
// gets the more cautious of the two (the larger Below), one past the last
// row the last row's, and an unknown or unparsable one none.
func (t *Table) Lookup(version string) (Range, bool) {
	v, ok := parseVersion(version)
	if !ok || len(t.Ranges) == 0 {
		return Range{}, false
	}
	for i, r := range t.Ranges {
		from, _ := parseVersion(r.From)
		to, _ := parseVersion(r.To)
		switch {
		case slices.Compare(v[:], from[:]) < 0:
			if i == 0 {
				return Range{}, false
			}
			prev := t.Ranges[i-1]
			if prev.Below > r.Below {
				return prev, true
			}
			return r, true
		case slices.Compare(to[:], v[:]) >= 0:
			return r, true
		}
	}
	return t.Ranges[len(t.Ranges)-1], true
}

// Knows reports whether a row was fitted or measured on version itself:
// it lies within a row's From and To. A version between rows or past
// the last is looked up by its neighbours, which is a guess.
func (t *Table) Knows(version string) bool {
	v, ok := parseVersion(version)
	if !ok {
		return false
	}
	for _, r := range t.Ranges {
		from, _ := parseVersion(r.From)
		to, _ := parseVersion(r.To)
		if slices.Compare(v[:], from[:]) >= 0 && slices.Compare(v[:], to[:]) <= 0 {
			return true
		}
	}
	return false
}

// version is a parsed Claude Code version: major, minor, patch.
type version [3]int

func parseVersion(s string) (version, bool) {
	var v version
	parts := strings.Split(strings.TrimSpace(s), ".")
	if len(parts) != 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

// Series is a version's series for words: "2.1.17" → "2.1.x".
func Series(version string) string {
	if v, ok := parseVersion(version); ok {
		return strconv.Itoa(v[0]) + "." + strconv.Itoa(v[1]) + ".x"
	}
	return "this version"
}

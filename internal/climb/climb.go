// Package climb keeps what the hook has announced in a session's current
// climb, so that each notice fires once per climb (design §5): the levels,
// the rule (StepIn), the record it keeps in the state folder and AdvanceWith,
// which applies the rule to the record under the folder's lock.
//
// The record of a session, <dir>/<session_id> in the state folder, holds
// the highest level announced and the lines in force when it fired.
// PostToolUse hooks run concurrently for parallel tool calls, so the
// read-decide-write step runs under a lock on <dir>/<session_id>.lock. A
// notice is sent only after its record is on disk: one that cannot be
// recorded would repeat on every call. A call with nothing to record or
// clear decides from an unlocked read and touches nothing.
//
// A climb ends, and both notices re-arm, when a compaction comes or the
// reading falls below both the lowest line (Lowest) in force when the last
// notice fired and the one in force now: a line that moves does not by
// itself clear or skip a level. The level due is judged against the lines
// in force now, and only a level higher than the one recorded fires, so
// jumping straight past the pause fires the pause alone.
package climb

// Level is how far a climb has gone.
type Level int

// The levels, in order.
const (
	None Level = iota
	Warn
	Pause
)

func (l Level) String() string {
	switch l {
	case Warn:
		return "warn"
	case Pause:
		return "pause"
	}
	return "none"
}

// LineTokens are the warn and pause lines in tokens: all the
// once-per-climb rule compares (lines.Lines.Tokens gives them, what set
// each line aside).
type LineTokens struct {
	Warn, Pause int64
}

// Due reports the level a reading has reached against lines.
func (ls LineTokens) Due(reading int64) Level {
	switch {
	case reading >= ls.Pause:
		return Pause
	case reading >= ls.Warn:
		return Warn
	}
	return None
}

// Lowest is the line where a climb starts: the warn line, or the pause
// line when a warn line fixed in the environment lies past a priced or
// window pause. Re-arming under the warn line alone would clear a pause
// on every call whose reading sits between the two, and repeat it.
func (ls LineTokens) Lowest() int64 {
	return min(ls.Warn, ls.Pause)
}

// Record is what a session's record, <dir>/<session_id>, holds.
type Record struct {
	Level   Level      `json:"-"`
	Name    string     `json:"level"`
	Lines   LineTokens `json:"lines"`
	Reading int64      `json:"reading"`
	// Compactions is how many compactions the session had when the
	// level was announced: a later one ends the climb (design §5).
	Compactions int `json:"compactions,omitempty"`
}

// StepIn is the once-per-climb rule itself, without the file: given what
// was recorded, a reading, the lines in force and the session's count of
// compactions so far (see Options.Compactions), it returns what to record
// next and the level to announce (None for silence). AdvanceWith applies
// it under the session's lock; replay applies it to past transcripts, so
// both decide alike.
func StepIn(rec Record, reading int64, lines LineTokens, compactions int) (next Record, fire Level) {
	if rec.Level != None && (reading < min(rec.Lines.Lowest(), lines.Lowest()) || compactions > rec.Compactions) {
		rec = Record{}
	}
	due := lines.Due(reading)
	if due <= rec.Level {
		return rec, None
	}
	return Record{Level: due, Name: due.String(), Lines: lines, Reading: reading, Compactions: compactions}, due
}

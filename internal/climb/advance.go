package climb

import (
	"errors"
	"path/filepath"
	"time"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
)

// Options bound AdvanceWith for a caller under a deadline, and carry the
// session's compactions.
type Options struct {
	// Compactions is the session's count of compact_boundary records:
	// one more than when the recorded level was announced re-arms both
	// notices, whatever the reading — a warn line priced under where the
	// compaction left the context would otherwise keep the next climb
	// silent.
	Compactions int
	// LockDeadline bounds the wait for the session's lock; zero means
	// LockWait from now. A lock still held then is ErrLockTimeout:
	// nothing recorded, nothing to send.
	LockDeadline time.Time
	// Gate, when set, is asked under the lock just before a level is
	// recorded; false abandons the record (ErrGate). The hook uses it so
	// that a call past its deadline records nothing it could no longer
	// send.
	Gate func() bool
}

// ErrGate reports a record abandoned because Options.Gate said no.
var ErrGate = errors.New("record abandoned at the deadline")

// AdvanceWith applies the once-per-climb rules for one reading under the
// session's lock and returns the level to announce (None for silence).
// The decision is recorded before it returns; an error means nothing may
// be sent.
func AdvanceWith(dir, session string, reading int64, lines LineTokens, o Options) (Level, error) {
	if !state.PlainName(session) {
		return None, state.ErrName
	}
	name := filepath.Join(dir, session)
	// Most calls have nothing to send and nothing to clear. Deciding that
	// from an unlocked read is safe: the read sees a state that was on
	// disk, or a record caught half written, which reads as none, the
	// state before a first record; a call that writes nothing is then as
	// if it ran alone at that moment, or just before the writer. Only a
	// call that may send or clear takes the lock, and decides again under
	// it.
	if quiet(Load(name), reading, lines, o.Compactions) {
		return None, nil
	}
	if err := state.Ensure(dir); err != nil {
		return None, err
	}
	deadline := o.LockDeadline
	if deadline.IsZero() {
		deadline = time.Now().Add(state.LockWait)
	}
	unlock, err := state.LockBy(filepath.Join(dir, session+state.LockSuffix), deadline)
	if err != nil {
		return None, err
	}
	defer unlock()

	rec := Load(name)
	next, fire := StepIn(rec, reading, lines, o.Compactions)
	if fire == None {
		if rec.Level != None && next.Level == None {
			if err := state.Remove(name); err != nil {
				return None, err
			}
		}
		return None, nil
	}
	if o.Gate != nil && !o.Gate() {
		return None, ErrGate
	}
	// Written in place under the lock, sparing the flush ext4 makes of a
	// file renamed over another: the one reader without the lock, the
	// look above, reads a record caught half written as none and takes
	// the lock. What cannot be written in place (a FIFO or a device
	// planted at the name) is replaced whole.
	data := encodeRecord(next)
	if err := state.WriteInPlace(name, data); err != nil {
		if err := state.WriteFile(name, data); err != nil {
			return None, err
		}
	}
	return fire, nil
}

// quiet reports whether StepIn, from rec, neither announces a level nor
// ends the recorded climb: then nothing needs writing.
func quiet(rec Record, reading int64, lines LineTokens, compactions int) bool {
	next, fire := StepIn(rec, reading, lines, compactions)
	return fire == None && (rec.Level == None || next.Level != None)
}

// Load reads a record file; a missing or unreadable one is no record.
func Load(name string) Record {
	data, err := reading.ReadFile(name, reading.MaxSideFile)
	if err != nil {
		return Record{}
	}
	rec, ok := decodeRecord(data)
	if !ok {
		return Record{}
	}
	// A record is a file like any other: lines no computation gives
	// would re-arm, or never re-arm, on every call.
	if rec.Lines.Warn <= 0 || rec.Lines.Pause <= 0 || rec.Reading < 0 {
		return Record{}
	}
	switch rec.Name {
	case "warn":
		rec.Level = Warn
	case "pause":
		rec.Level = Pause
	default:
		return Record{}
	}
	return rec
}

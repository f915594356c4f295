// Package state keeps what the hook has announced in a session's current
// climb, so that each notice fires once per climb (design §5).
//
// The state of a session is one small file, <dir>/<session_id>, holding the
// highest level announced and the lines in force when it fired. Claude Code
// runs PostToolUse hooks concurrently for parallel tool calls, so the
// read-decide-write step runs under an exclusive lock on
// <dir>/<session_id>.lock, and the file is replaced atomically (temp file,
// rename). A notice is sent only after its record is on disk: one that
// cannot be recorded would repeat on every call. A call with nothing to
// record or clear (the common one, under the warn line or already
// announced) decides from an unlocked read and touches nothing: no folder,
// no lock.
//
// The rules:
//
//   - A climb ends, and both notices re-arm, only when the reading falls
//     below the warn line in force when the last notice fired and below the
//     warn line in force now (below the pause line, where a warn line fixed
//     in the environment lies past it). A line that moves does not by itself clear
//     or skip a level; a compaction re-arms.
//   - The level due is pause at or past the current pause line, warn at or
//     past the current warn line. Only a level higher than the one recorded
//     fires, so jumping straight past the pause fires the pause alone.
package state

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/muthur/context-budget/internal/atomicfile"
	"github.com/muthur/context-budget/internal/reading"
)

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

// Lines are the two lines in tokens.
type Lines struct {
	Warn, Pause int64
}

// Due reports the level a reading has reached against lines.
func (ls Lines) Due(reading int64) Level {
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
func (ls Lines) Lowest() int64 {
	return min(ls.Warn, ls.Pause)
}

// Record is what a session's state file holds.
type Record struct {
	Level   Level  `json:"-"`
	Name    string `json:"level"`
	Lines   Lines  `json:"lines"`
	Reading int64  `json:"reading"`
	// Compactions is how many compactions the session had when the
	// level was announced: a later one ends the climb (design §5).
	Compactions int `json:"compactions,omitempty"`
}

// Dir is the state folder of a project root.
func Dir(root string) string {
	return filepath.Join(root, "tmp", "context-budget")
}

// ErrName reports an id that is not a plain file name.
var ErrName = errors.New("not a plain name")

// PlainName reports whether id can be used in a file name: 1 to 200
// letters, digits, '-' or '_'. That is stricter than the design's rule
// (no slash, no leading dot, no NUL) on purpose: a dot would let an id such
// as "x.lock" or "x.line" name another session's side files. Claude Code's
// session ids are UUIDs.
func PlainName(id string) bool {
	if id == "" || len(id) > 200 {
		return false
	}
	for _, c := range []byte(id) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}

// Ensure creates dir with a .gitignore of "*" so the state never shows in
// git status. The folder is created inside the project without following
// a symbolic link out of it (see WriteFile): a committed
// tmp/context-budget that links elsewhere is an error, and gets nothing,
// not even the .gitignore. The project root itself is not created.
func Ensure(dir string) error {
	root, rel := split(dir)
	if err := atomicfile.MkdirIn(root, rel); err != nil {
		return err
	}
	if _, err := os.Lstat(filepath.Join(dir, ".gitignore")); err == nil {
		return nil
	}
	return WriteFile(filepath.Join(dir, ".gitignore"), []byte("*\n"))
}

// WriteFile replaces name atomically: a temp file in the same folder, then
// a rename, so readers see the old content or the new, never a part. name
// is a file of a state folder (Dir): it is written through the project
// root, every component resolved inside it, so a symbolic link on the way
// that leads out of the project (a linked tmp/context-budget) is an error
// and nothing is written elsewhere. A link at name itself is replaced,
// never written through.
func WriteFile(name string, data []byte) error {
	root, rel := split(filepath.Dir(name))
	return atomicfile.WriteIn(root, rel+"/"+filepath.Base(name), data, atomicfile.Options{Perm: 0o644})
}

// WriteInPlace overwrites name, a file of a state folder, in place: no
// temp file, no rename, so a reader may catch a write half done and must
// accept that (the loop step's one-line file, rewritten on every tool
// call, where a rename per call cost a third of the call). It is written
// through the project root like WriteFile: a link that leads out of the
// project, on the way or at name, is an error.
func WriteInPlace(name string, data []byte) error {
	root, rel := split(filepath.Dir(name))
	if handled, err := writeInPlaceFast(root, rel+"/"+filepath.Base(name), data); handled {
		return err
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	f, err := r.OpenFile(rel+"/"+filepath.Base(name), os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err = f.WriteAt(data, 0); err == nil {
		err = f.Truncate(int64(len(data)))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Clean removes the temporary files that writers killed partway left in
// the state folder dir (atomicfile.Clean): older than a minute and held
// by no live writer.
func Clean(dir string) {
	root, rel := split(dir)
	atomicfile.Clean(root, rel, "")
}

// split returns the project root of a state folder and the folder's path
// under it: <root>, "tmp/context-budget" for Dir(root); for any other
// folder, its parent and its name.
func split(dir string) (root, rel string) {
	dir = filepath.Clean(dir)
	parent := filepath.Dir(dir)
	if filepath.Base(dir) == "context-budget" && filepath.Base(parent) == "tmp" {
		return filepath.Dir(parent), "tmp/context-budget"
	}
	return parent, filepath.Base(dir)
}

// Advance applies the once-per-climb rules for one reading and returns the
// level to announce (None for silence). The decision is recorded before
// Advance returns; an error means nothing may be sent.
func Advance(dir, session string, reading int64, lines Lines) (Level, error) {
	return AdvanceWith(dir, session, reading, lines, Options{})
}

// AdvanceIn is Advance for a session that has had compactions
// compactions (compact_boundary records) so far: one more than when the
// recorded level was announced re-arms both notices, whatever the
// reading — a warn line priced under where the compaction left the
// context would otherwise keep the next climb silent.
func AdvanceIn(dir, session string, reading int64, lines Lines, compactions int) (Level, error) {
	return AdvanceWith(dir, session, reading, lines, Options{Compactions: compactions})
}

// Options bound Advance for a caller under a deadline, and carry the
// session's compactions (see AdvanceIn).
type Options struct {
	// Compactions is the session's count of compact_boundary records.
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

// AdvanceWith is Advance with bounds.
func AdvanceWith(dir, session string, reading int64, lines Lines, o Options) (Level, error) {
	compactions := o.Compactions
	if !PlainName(session) {
		return None, ErrName
	}
	name := filepath.Join(dir, session)
	// Most calls have nothing to send and nothing to clear. Deciding that
	// from an unlocked read is safe: the file is only ever replaced whole
	// (rename), so the read sees one state that was on disk, and a call
	// that writes nothing is then as if it ran alone at that moment. Only a
	// call that may send or clear takes the lock, and decides again under
	// it. This spares the quiet call the folder, the lock and their
	// system calls, a good share of the hook's budget (design §11).
	if quiet(Load(name), reading, lines, compactions) {
		return None, nil
	}
	if err := Ensure(dir); err != nil {
		return None, err
	}
	deadline := o.LockDeadline
	if deadline.IsZero() {
		deadline = time.Now().Add(LockWait)
	}
	unlock, err := lock(filepath.Join(dir, session+".lock"), deadline)
	if err != nil {
		return None, err
	}
	defer unlock()

	rec := Load(name)
	next, fire := StepIn(rec, reading, lines, compactions)
	if fire == None {
		if rec.Level != None && next.Level == None {
			if err := os.Remove(name); err != nil && !os.IsNotExist(err) {
				return None, err
			}
		}
		return None, nil
	}
	if o.Gate != nil && !o.Gate() {
		return None, ErrGate
	}
	if err := WriteFile(name, encodeRecord(next)); err != nil {
		return None, err
	}
	return fire, nil
}

// quiet reports whether Step, from rec, neither announces a level nor
// ends the recorded climb: then nothing needs writing.
func quiet(rec Record, reading int64, lines Lines, compactions int) bool {
	next, fire := StepIn(rec, reading, lines, compactions)
	return fire == None && (rec.Level == None || next.Level != None)
}

// Step is the once-per-climb rule itself, without the file: given what was
// recorded, a reading and the lines in force, it returns what to record
// next and the level to announce (None for silence). Advance applies it
// under the session's lock; replay applies it to past transcripts, so both
// decide alike.
func Step(rec Record, reading int64, lines Lines) (next Record, fire Level) {
	return StepIn(rec, reading, lines, rec.Compactions)
}

// StepIn is Step for a session that has had compactions compactions so
// far (see AdvanceIn).
func StepIn(rec Record, reading int64, lines Lines, compactions int) (next Record, fire Level) {
	if rec.Level != None && (reading < min(rec.Lines.Lowest(), lines.Lowest()) || compactions > rec.Compactions) {
		rec = Record{}
	}
	due := lines.Due(reading)
	if due <= rec.Level {
		return rec, None
	}
	return Record{Level: due, Name: due.String(), Lines: lines, Reading: reading, Compactions: compactions}, due
}

// Load reads a state file; a missing or unreadable one is no state.
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

package operator

import (
	"path/filepath"
	"strconv"
	"time"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
)

// Pause is the record of a session's latest pause notice: whether it
// offered /relay (manual mode) or asked for it unasked, and when. The
// manual-relay switch may live where a program outside the session
// cannot see it (a settings file's env, the operator's committed file),
// so the hook records what it decided; context-budget run reads it to
// tell a session that waits for its operator from one that ended.
type Pause struct {
	Manual bool `json:"manual"`
	// At is when the notice was decided (RFC 3339, UTC).
	At string `json:"at"`
}

// PauseFile is a session's pause record in the state folder dir.
func PauseFile(dir, session string) string {
	return filepath.Join(dir, session+state.PauseSuffix)
}

// RecordPause records a pause notice's ending for the session, replacing
// the one before. It is rewritten in place, with no rename (which ext4
// flushes when it replaces a file): one notice per climb writes it, and
// its reader, the runner, reads it once the session has ended.
func RecordPause(dir, session string, manual bool, at time.Time) error {
	if !state.PlainName(session) {
		return nil
	}
	if err := state.Ensure(dir); err != nil {
		return err
	}
	// By hand: the hook builds its output without fmt or reflection.
	b := append([]byte(`{"manual":`), strconv.FormatBool(manual)...)
	b = append(b, `,"at":"`...)
	b = at.UTC().AppendFormat(b, time.RFC3339)
	b = append(b, "\"}\n"...)
	return state.WriteInPlace(PauseFile(dir, session), b)
}

// ReadPause reads a session's pause record; ok is false when the session
// had no pause notice, or its record does not read.
func ReadPause(dir, session string) (p Pause, ok bool) {
	if !state.PlainName(session) {
		return Pause{}, false
	}
	return state.FromJSON[Pause](reading.ReadFile(PauseFile(dir, session), reading.MaxSideFile))
}

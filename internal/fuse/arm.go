package fuse

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
)

// Arm is what a session's fuse file holds.
type Arm struct {
	// Cap is the session cap armed from the CLI; it replaces
	// MUTHUR_CONTEXT_BUDGET_SPEND for the session. Zero with Set false:
	// the environment's cap holds.
	Cap tuning.Amount `json:"cap"`
	// Set says the CLI armed or disarmed the session: Cap (zero after a
	// disarm) is its cap, whatever the environment says.
	Set bool `json:"set"`
	// Base is the session's spend when the cap was armed or reset: the
	// cap counts from there.
	Base Sum `json:"base"`
	// At is when the cap was armed or reset (RFC 3339, UTC).
	At string `json:"at,omitempty"`
	// Loop, when set, is a loop halt: the call repeated, until the run
	// ends at its stop.
	Loop *Loop `json:"loop,omitempty"`
}

// Loop is a run of one tool call repeated.
type Loop struct {
	// Call names the call, e.g. "Bash: go test ./...".
	Call  string `json:"call"`
	Count int    `json:"count"`
}

// FileName is a session's fuse file.
func FileName(dir, session string) string {
	return filepath.Join(dir, session+state.FuseSuffix)
}

// TallyName is a session's saved tally.
func TallyName(dir, session string) string {
	return filepath.Join(dir, session+state.SpendSuffix)
}

// lockName is the lock the fuse file and the tally are changed under.
func lockName(dir, session string) string {
	return filepath.Join(dir, session+state.FuseSuffix+state.LockSuffix)
}

// LoadArm reads a session's fuse file; ok false when there is none or it
// does not parse.
func LoadArm(dir, session string) (Arm, bool) {
	var a Arm
	data, err := reading.ReadFile(FileName(dir, session), 1<<20)
	if err != nil || json.Unmarshal(data, &a) != nil {
		return Arm{}, false
	}
	return a, true
}

// saveArm writes the fuse file, or removes it when it holds nothing.
func saveArm(dir, session string, a Arm) error {
	if !a.Set && a.Loop == nil {
		err := os.Remove(FileName(dir, session))
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	if err := state.Ensure(dir); err != nil {
		return err
	}
	data, _ := json.Marshal(a)
	return state.WriteFile(FileName(dir, session), append(data, '\n'))
}

// ChangeArm applies change to a session's fuse file under its lock.
func ChangeArm(dir, session string, change func(a *Arm) error) error {
	if err := state.Ensure(dir); err != nil {
		return err
	}
	unlock, err := state.Lock(lockName(dir, session))
	if err != nil {
		return err
	}
	defer unlock()
	a, _ := LoadArm(dir, session)
	if err := change(&a); err != nil {
		return err
	}
	return saveArm(dir, session, a)
}

// saveTally writes a session's tally in place. The caller holds the
// fuse's lock, so no other writer runs; an atomic replace (a new file and
// a rename) would allocate an inode on every metered call, which on ext4
// cost more than the rest of the call. It is written through the project
// root, refusing any link on the way (state.WriteInPlace). A reader
// without the lock (the day's sum over other sessions) may catch a write
// half done: the tally then does not parse, and LoadSettled reads
// again.
func saveTally(dir, session string, t *Tally) error {
	return state.WriteInPlace(TallyName(dir, session), t.encode())
}

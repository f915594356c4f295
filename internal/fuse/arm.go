package fuse

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/state"
	"github.com/muthur/context-budget/internal/tuning"
)

// The suffixes of a session's files in the fuse's folder (Dir), after
// its id (state.PlainName ids hold no dot): what the CLI armed and a loop
// halt standing; the spend tally; the halts, one JSON object a line.
const (
	ArmSuffix   = ".fuse"
	SpendSuffix = ".spend"
	HaltsSuffix = ".halts"
)

// StateRoot is the fuse's own folder under the user's Claude Code config
// folder ($CLAUDE_CONFIG_DIR, else ~/.claude), where Claude Code keeps the
// session's transcripts: <config>/context-budget. "" when neither is set.
func StateRoot(getenv func(string) string) string {
	cfg := getenv("CLAUDE_CONFIG_DIR")
	if cfg == "" {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		cfg = filepath.Join(home, ".claude")
	}
	if abs, err := filepath.Abs(cfg); err == nil {
		cfg = abs
	}
	return filepath.Join(cfg, "context-budget")
}

// Dir is the fuse's folder for a project: StateRoot/fuse/<ProjectKey>,
// outside the tree the agent works in (design §13). "" without a config
// folder or a root.
func Dir(getenv func(string) string, root string) string {
	base := StateRoot(getenv)
	if base == "" || root == "" {
		return ""
	}
	return filepath.Join(base, "fuse", ProjectKey(root))
}

// ProjectKey names a project's folder: the absolute root with its links
// resolved, spelled as Claude Code names its projects folders (every
// character but a letter or a digit a '-'), cut at 80, and a hash of the
// whole root, so that two roots never share a key.
func ProjectKey(root string) string {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	b := []byte(root)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	b = b[:min(len(b), 80)]
	h := fnv.New32a()
	h.Write([]byte(root))
	return fmt.Sprintf("%s-%08x", b, h.Sum32())
}

// Arm is what a session's arm file holds. Set says the CLI armed or
// disarmed the session: Cap (zero after a disarm) is then its cap in
// place of MUTHUR_CONTEXT_BUDGET_SPEND; unset, the environment's holds.
// Base is the session's spend when the cap was armed or reset (the cap
// counts from there), At when (RFC 3339, UTC). Loop, when set, is a loop
// halt standing.
type Arm struct {
	Cap  tuning.Amount `json:"cap"`
	Set  bool          `json:"set"`
	Base Sum           `json:"base"`
	At   string        `json:"at,omitempty"`
	Loop *Loop         `json:"loop,omitempty"`
}

// Loop is a run of one tool call repeated: the call named ("Bash: go
// test ./...") and how many times it ran.
type Loop struct {
	Call  string `json:"call"`
	Count int    `json:"count"`
}

// FileName is a session's arm file in the fuse's folder dir.
func FileName(dir, session string) string {
	return filepath.Join(dir, session+ArmSuffix)
}

// TallyName is a session's saved tally.
func TallyName(dir, session string) string {
	return filepath.Join(dir, session+SpendSuffix)
}

// lockName is the lock the arm file and the tally change under.
func lockName(dir, session string) string {
	return filepath.Join(dir, session+ArmSuffix+state.LockSuffix)
}

// LoadArm reads a session's arm file: ok false when there is none. Any
// other failure (a folder that cannot be read, a file that does not
// parse) is an error: the fuse cannot tell whether it is armed.
func LoadArm(dir, session string) (a Arm, ok bool, err error) {
	data, err := reading.ReadFile(FileName(dir, session), reading.MaxSideFile)
	if errors.Is(err, fs.ErrNotExist) {
		return Arm{}, false, nil
	}
	if err != nil {
		return Arm{}, false, err
	}
	if err := json.Unmarshal(data, &a); err != nil {
		return Arm{}, false, err
	}
	return a, true, nil
}

// ensure makes the fuse's folder, private to the user. The user's config
// folder may be a link (dotfile managers make them), and is followed.
func ensure(dir string) error {
	if dir == "" {
		return errors.New("no config folder: neither CLAUDE_CONFIG_DIR nor HOME is set")
	}
	return os.MkdirAll(dir, 0o700)
}

// saveArm writes the arm file, or removes it when it holds nothing.
func saveArm(dir, session string, a Arm) error {
	if !a.Set && a.Loop == nil {
		err := os.Remove(FileName(dir, session))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	data, _ := json.Marshal(a)
	return state.WriteFile(FileName(dir, session), append(data, '\n'))
}

// lockFuse takes a session's lock in dir, waiting until by (zero: the
// state package's LockWait), and making the folder only when the lock
// cannot be opened: on most calls it is there.
func lockFuse(dir, session string, by time.Time) (func(), error) {
	if by.IsZero() {
		by = time.Now().Add(state.LockWait)
	}
	unlock, err := state.LockBy(lockName(dir, session), by)
	if err == nil || errors.Is(err, state.ErrLockTimeout) {
		return unlock, err
	}
	if err := ensure(dir); err != nil {
		return nil, err
	}
	return state.LockBy(lockName(dir, session), by)
}

// ChangeArm applies change to a session's arm file under its lock.
func ChangeArm(dir, session string, change func(a *Arm) error) error {
	unlock, err := lockFuse(dir, session, time.Time{})
	if err != nil {
		return err
	}
	defer unlock()
	a, _, err := LoadArm(dir, session)
	if err != nil {
		return err
	}
	if err := change(&a); err != nil {
		return err
	}
	return saveArm(dir, session, a)
}

// saveTally writes a session's tally in place (state.WriteInPlace, which
// refuses a link at its name): the caller holds the fuse's lock, so no
// other writer runs, and an atomic replace would cost an inode on every
// metered call.
func saveTally(dir, session string, t *Tally) error {
	return state.WriteInPlace(TallyName(dir, session), t.encode())
}

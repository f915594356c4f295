package fuse

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
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

// LoadArm reads a session's arm file in the fuse's folder dir: ok false
// when there is none. Any other failure (a folder on the way that is a
// link or not a folder, a file with another name, one that does not
// parse) is an error: the fuse cannot tell whether it is armed.
func LoadArm(dir, session string) (a Arm, ok bool, err error) {
	fo, err := openFolder(dir, false)
	if errors.Is(err, fs.ErrNotExist) {
		return Arm{}, false, nil
	}
	if err != nil {
		return Arm{}, false, err
	}
	defer fo.close()
	return fo.loadArm(session)
}

func (fo *folder) loadArm(session string) (a Arm, ok bool, err error) {
	data, err := fo.read(session+ArmSuffix, reading.MaxSideFile)
	if errors.Is(err, fs.ErrNotExist) {
		return Arm{}, false, nil
	}
	if err != nil {
		return Arm{}, false, err
	}
	return parseArm(data)
}

func parseArm(data []byte) (a Arm, ok bool, err error) {
	if err := json.Unmarshal(data, &a); err != nil {
		return Arm{}, false, err
	}
	return a, true, nil
}

// saveArm writes the arm file, or removes it when it holds nothing.
func (fo *folder) saveArm(session string, a Arm) error {
	if !a.Set && a.Loop == nil {
		return fo.remove(session + ArmSuffix)
	}
	data, _ := json.Marshal(a)
	return fo.write(session+ArmSuffix, append(data, '\n'))
}

// lockSession takes a session's lock, waiting until by (zero: the state
// package's LockWait).
func (fo *folder) lockSession(session string, by time.Time) (func(), error) {
	return fo.lock(session+ArmSuffix+state.LockSuffix, by)
}

// ChangeArm applies change to a session's arm file under its lock.
func ChangeArm(dir, session string, change func(a *Arm) error) error {
	fo, err := openFolder(dir, true)
	if err != nil {
		return err
	}
	defer fo.close()
	unlock, err := fo.lockSession(session, time.Time{})
	if err != nil {
		return err
	}
	defer unlock()
	a, _, err := fo.loadArm(session)
	if err != nil {
		return err
	}
	if err := change(&a); err != nil {
		return err
	}
	return fo.saveArm(session, a)
}

// saveTally replaces a session's tally (folder.write): a tally is never
// written in place, so a write cut short leaves the last one whole, and
// no other name or open file of the old one sees the new.
func (fo *folder) saveTally(session string, t *Tally) error {
	return fo.write(session+SpendSuffix, t.encode())
}

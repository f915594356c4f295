package fuse

// The witness (design §13): while a session is armed, the fuse keeps a
// second copy of what arms it, and of a floor under what it has counted,
// in a second place, per user and outside both the Claude Code config
// folder and the project (WitnessRoot). Removing the state root, copying
// a fake one over it, or removing the tally then reads as what it is: the
// hook restores a missing state from the witness and decides as armed,
// and refuses, failing closed with the cause, an arm file or a tally that
// holds less than the witness does. Only the user's budget arm, reset and
// disarm (the CLI, from their own shell) set both. The witness is a
// folder of the same shape as the fuse's, written by the same code
// (folder.go), so what refuses a link or a second name there refuses it
// here.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/muthur/context-budget/internal/atomicfile"
	"github.com/muthur/context-budget/internal/reading"
	"github.com/muthur/context-budget/internal/tuning"
)

// WitnessSuffix is the suffix of a session's witness, after its id.
const WitnessSuffix = ".witness"

// WitnessRoot is the folder of the fuse's witnesses: context-budget in
// the user's state folder ($XDG_STATE_HOME, else ~/.local/state). ""
// when neither is set.
func WitnessRoot(getenv func(string) string) string {
	st := getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(st) {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		st = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(st, "context-budget")
}

// witnessDir is the witness folder of the fuse's folder dir (Dir):
// WitnessRoot/fuse/<ProjectKey>; "" without one.
func witnessDir(getenv func(string) string, dir string) string {
	base := WitnessRoot(getenv)
	if base == "" || dir == "" {
		return ""
	}
	return filepath.Join(base, "fuse", filepath.Base(dir))
}

// witness is what a session's witness holds: the arm record the CLI
// last set (its loop halt left out: a halt is the hook's, and a missing
// one costs nothing), and Floor, the tally's total at its last mark. The
// witness is rewritten when the arm changes and when the spend has grown
// by a tenth of a session cap since Floor, or reached the cap.
type witness struct {
	Arm   Arm `json:"arm"`
	Floor Sum `json:"floor"`
}

// markShare is the share of a session cap the spend grows by between two
// marks: a state removed together with the transcript it was counted
// from loses at most that much.
const markShare = 0.1

// peekWitness reads a session's witness in the witness folder wdir, as
// peekArm reads the arm file (no link on the way, one name): ok false
// when there is none.
func peekWitness(wdir, session string) (w witness, ok bool, err error) {
	if wdir == "" {
		return witness{}, false, nil
	}
	data, ok, err := peekFile(wdir, session+WitnessSuffix, "its witness folder", "its witness")
	if err == nil && ok {
		if err = json.Unmarshal(data, &w); err != nil {
			err = fmt.Errorf("its witness (%s) cannot be read: %w", filepath.Join(wdir, session+WitnessSuffix), err)
		}
	}
	return w, ok && err == nil, err
}

// witnessed reports whether a session may have a witness in wdir: its
// name is there, or something on the way to it is not a folder. One look,
// for the call that finds no arm file; peekWitness then reads it as the
// fuse reads its state.
func witnessed(wdir, session string) bool {
	if wdir == "" {
		return false
	}
	_, err := os.Lstat(filepath.Join(wdir, session+WitnessSuffix))
	return !errors.Is(err, fs.ErrNotExist)
}

// saveWitness replaces a session's witness in wdir (folder.write).
func saveWitness(wdir, session string, a Arm, floor Sum) error {
	fo, err := openFolder(wdir, true)
	if err != nil {
		return fmt.Errorf("its witness folder cannot be used: %w", err)
	}
	defer fo.close()
	a.Loop = nil
	data, _ := json.Marshal(witness{Arm: a, Floor: floor})
	if err := fo.write(session+WitnessSuffix, append(data, '\n')); err != nil {
		return fmt.Errorf("its witness (%s) cannot be saved: %w", fo.path(session+WitnessSuffix), err)
	}
	return nil
}

// verdict is what judge makes of an arm file against its witness: the
// arm the fuse decides by (Use); Restore when the arm file must be
// written again from the witness (it is missing, or no longer armed by
// the CLI); Rewrite when the witness must be written from the arm file
// (it is missing, or the arm file holds more than it); Tamper, the cause,
// when the arm file holds less than the witness.
type verdict struct {
	Use              Arm
	Restore, Rewrite bool
	Tamper           string
}

// judge compares a session's arm record a (aok: the arm file is there)
// with its witness w (wok), env being the environment's session cap.
// What a record protects is its cap, or the environment's when the CLI
// set none: a record that lowers it (no cap, a higher cap, a cap in
// another unit, a later baseline) is tampering, unless the witness
// agrees.
func judge(a Arm, aok bool, w witness, wok bool, env tuning.Amount) verdict {
	wa := w.Arm
	if !wok {
		wa = Arm{}
	}
	switch {
	case wa.Set && (!aok || !a.Set):
		// The state root, or the arm file, is gone: the witness's arm
		// stands, with a loop halt the hook recorded meanwhile.
		use := wa
		use.Loop = a.Loop
		return verdict{Use: use, Restore: true}
	case !a.Set:
		return verdict{Use: a}
	}
	has, kept := guarded(a, env), guarded(wa, env)
	switch {
	case lowers(has, kept):
		by := "its witness keeps"
		if !wa.Set {
			by = "the session's environment sets"
		}
		return verdict{Use: wa, Tamper: fmt.Sprintf("its arm file sets %s where %s %s: the state was written by other hands than the user's budget arm, reset or disarm", capWords(has), by, capWords(kept))}
	case wa.Set && has == kept && above(a.Base, wa.Base):
		return verdict{Use: wa, Tamper: "its arm file counts the cap from a later baseline than its witness keeps: the state was written by other hands than the user's budget arm or reset"}
	}
	stripped := a
	stripped.Loop = nil
	return verdict{Use: a, Rewrite: !wok || stripped != wa}
}

// guarded is the session cap a record leaves in force: the CLI's when it
// set one (zero after a disarm), else the environment's.
func guarded(a Arm, env tuning.Amount) tuning.Amount {
	if a.Set {
		return a.Cap
	}
	return env
}

// lowers reports whether the cap has protects less than kept does: no
// cap where kept is one, a higher one, or one in another unit.
func lowers(has, kept tuning.Amount) bool {
	switch {
	case kept.IsZero():
		return false
	case has.IsZero():
		return true
	case (has.USD > 0) != (kept.USD > 0):
		return true
	}
	return has.USD > kept.USD || has.Tokens > kept.Tokens
}

func capWords(a tuning.Amount) string {
	if a.IsZero() {
		return "no cap"
	}
	return "a cap of " + a.String()
}

// above reports whether s is more than t in dollars or tokens, past the
// rounding of sums added in another order.
func above(s, t Sum) bool {
	return s.Tokens > t.Tokens || s.USD > t.USD+1e-9*max(1, t.USD)
}

// floorFrom brings a tally up to the witness's floor: a tally that counts
// nothing (its state removed) starts from the floor; one that counts less
// than the floor is an older tally put in the place of the fuse's own,
// and the cause is returned.
func (t *Tally) floorFrom(w witness, wok bool) string {
	switch {
	case !wok || !above(w.Floor, t.Total()):
		return ""
	case t.Transcript == "" && len(t.Files) == 0 && len(t.Kept) == 0:
		f := w.Floor
		t.Floor = &f
		t.tamper("the fuse's state was removed while a cap was armed; what it had counted was kept from its witness")
		return ""
	}
	return "its tally counts less than its witness keeps: an older tally was put in its place"
}

// markDue reports whether the witness's floor is to be raised to total:
// the spend grew by markShare of a session cap since it, or reached the
// cap (counted from base) while the floor had not.
func markDue(caps []capState, total, base Sum, w witness) bool {
	for _, cs := range caps {
		if cs.kind != "session" {
			continue
		}
		if shareOf(cs.cap, total.Sub(w.Floor)) >= markShare ||
			shareOf(cs.cap, total.Sub(base)) >= 1 && shareOf(cs.cap, w.Floor.Sub(base)) < 1 {
			return true
		}
	}
	return false
}

// peekFile reads the file name in the fuse's folder dir (Dir, or a
// witness folder) as cheaply as the unarmed call must: the folders from
// the root's parent to dir looked at (a missing one means no file; one
// that is a link or not a folder is an error), then the file opened by
// its path without following a link at it, and refused as read refuses.
// The armed call opens the folder again (openFolder), which a link
// swapped in meanwhile cannot pass. An error says what the fuse could not
// use: the folder (folderWhat) or the file (fileWhat).
func peekFile(dir, name, folderWhat, fileWhat string) (data []byte, ok bool, err error) {
	config, _ := rel(dir)
	at := config
	for _, part := range []string{filepath.Base(filepath.Dir(filepath.Dir(dir))), "fuse", filepath.Base(dir)} {
		at = filepath.Join(at, part)
		fi, err := os.Lstat(at)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, false, nil
		case err != nil:
			return nil, false, fmt.Errorf("%s cannot be used: %w", folderWhat, err)
		case fi.Mode()&fs.ModeSymlink != 0:
			return nil, false, fmt.Errorf("%s cannot be used: %s is a symbolic link, not the fuse's own folder", folderWhat, at)
		case !fi.IsDir():
			return nil, false, fmt.Errorf("%s cannot be used: %s is not a folder", folderWhat, at)
		}
	}
	path := filepath.Join(dir, name)
	f, err := openNoFollow(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, nil
	case errors.Is(err, atomicfile.ErrLink):
		err = errIsLink
	case err == nil:
		defer f.Close()
		data, err = readOwn(f, reading.MaxSideFile)
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s (%s) cannot be read: %w", fileWhat, path, err)
	}
	return data, true, nil
}

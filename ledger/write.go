package ledger

import (
	"encoding/json"
	"errors"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/muthur/context-budget/internal/atomicfile"
	"github.com/muthur/context-budget/internal/state"
)

// ErrName reports a session id that cannot be a file name.
var ErrName = errors.New("session id is not a plain file name")

// Path is where a row lives: <Dir(root)>/<YYYY-MM>/<session_id>.json, the
// month of the session's first response (UTC). A row with no first
// response is filed under the month of now.
func Path(root string, r *Row) (string, error) {
	if !state.PlainName(r.SessionID) {
		return "", ErrName
	}
	t, err := time.Parse(time.RFC3339Nano, r.FirstResponseAt)
	if err != nil {
		t = time.Now()
	}
	return filepath.Join(Dir(root), t.UTC().Format("2006-01"), r.SessionID+".json"), nil
}

// Marshal returns the row as it is written: indented JSON and a final
// newline, so that rows diff well in review.
func Marshal(r *Row) ([]byte, error) {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// Write writes r to its Path under root, replacing any row of the same
// session atomically, and returns the path. Figures out of range (a NaN
// from a bad price table) are first made to fit (Sanitize): a row is
// always written, and always reads back.
func Write(root string, r *Row) (string, error) {
	name, err := Path(root, r)
	if err != nil {
		return "", err
	}
	r.Sanitize()
	data, err := Marshal(r)
	if err != nil {
		return "", err
	}
	// Through the project root, every component resolved inside it: a
	// committed .claude or costs folder that links out of the project
	// gets nothing (and a leftover temporary file of a writer killed
	// partway is cleaned once it is a minute old).
	rel, err := filepath.Rel(root, name)
	if err != nil {
		return "", err
	}
	rel = filepath.ToSlash(rel)
	month := path.Dir(rel)
	// The root itself is created when missing, as it always was (a
	// backfill into a new folder); everything under it goes through it.
	if _, err := os.Stat(root); os.IsNotExist(err) {
		if err := os.MkdirAll(root, 0o755); err != nil {
			return "", err
		}
	}
	if err := atomicfile.MkdirIn(root, month); err != nil {
		return "", err
	}
	atomicfile.Clean(root, month, tmpSuffix)
	return name, atomicfile.WriteIn(root, rel, data, rowWrite())
}

// tmpSuffix ends a row's temporary file's name, so that a reader of the
// folder skips it by its name.
const tmpSuffix = ".tmp"

// rowWrite is how a row is written: synced, mode 0644, its temporary file
// named for the reader to skip.
func rowWrite() atomicfile.Options {
	return atomicfile.Options{Perm: 0o644, Sync: true, Suffix: tmpSuffix, BeforeRename: testOnlyBeforeRename}
}

// testOnlyBeforeRename, when set, runs between writing the temporary file
// and renaming it into place: tests use it to stand for a crash there.
var testOnlyBeforeRename func(tmp string) error

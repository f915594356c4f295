// Package state is the state folder of a project, <root>/tmp/context-budget
// (design §5): created inside the project with a .gitignore of "*", never
// through a symbolic link, and written only through the project root. It
// holds the files the hook keeps between calls (their names are here,
// and Files lists each kind with its writer), their bounded locks, and
// the ways to write them: replaced atomically (WriteFile, and WriteJSON
// for the one-line JSON files FromJSON reads back) or rewritten in place
// (WriteInPlace). PlainName decides which session ids may name a file
// here.
package state

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/muthur/context-budget/internal/atomicfile"
	"github.com/muthur/context-budget/internal/reading"
)

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
// a symbolic link (see WriteFile): a committed tmp or tmp/context-budget
// that is a link, wherever it points, is an error, and gets nothing, not
// even the .gitignore. The project root itself is not created.
func Ensure(dir string) error {
	root, rel := split(dir)
	if err := atomicfile.MkdirIn(root, rel); err != nil {
		return err
	}
	if _, err := os.Lstat(filepath.Join(dir, Gitignore)); err == nil {
		return nil
	}
	return WriteFile(filepath.Join(dir, Gitignore), []byte("*\n"))
}

// WriteFile replaces name atomically: a temp file in the same folder, then
// a rename, so readers see the old content or the new, never a part. name
// is a file of a state folder (Dir): it is written through the project
// root without following a symbolic link on the way (a linked tmp or
// tmp/context-budget, in or out of the project, is an error) and nothing
// is written elsewhere. A link at name itself is replaced, never written
// through.
func WriteFile(name string, data []byte) error {
	root, rel := split(filepath.Dir(name))
	return atomicfile.WriteIn(root, rel+"/"+filepath.Base(name), data, atomicfile.Options{Perm: 0o644})
}

// FromJSON decodes what a read of a JSON file returned (reading.ReadFile,
// with the bound of the file's kind named where it is called): ok is
// false, and v zero, when the read failed or the file is not JSON of
// T's shape.
func FromJSON[T any](data []byte, err error) (v T, ok bool) {
	if err != nil || json.Unmarshal(data, &v) != nil {
		var zero T
		return zero, false
	}
	return v, true
}

// WriteJSON writes v as one line of JSON to name, a file of a state
// folder: the folder is made as Ensure makes it, and name replaced as
// WriteFile replaces it.
func WriteJSON(name string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := Ensure(filepath.Dir(name)); err != nil {
		return err
	}
	return WriteFile(name, append(data, '\n'))
}

// WriteInPlace overwrites name, a file of a state folder, in place: no
// temp file, no rename, so a reader may catch a write half done and must
// accept that (the loop step's one-line file, rewritten on every tool
// call). It is opened as open does: through the project root, no link
// followed on the way or at name, and what is not a regular file (a FIFO
// planted at name, which would otherwise hold the call until its
// deadline) refused.
func WriteInPlace(name string, data []byte) error {
	f, err := open(name, os.O_WRONLY|os.O_CREATE|nonBlock)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.WriteAt(data, 0); err != nil {
		return err
	}
	if err := f.Truncate(int64(len(data))); err != nil {
		return err
	}
	return f.Close()
}

// open opens name, a file of a state folder, for writing (flag) through
// the project root without following a symbolic link: not at a folder on
// the way (atomicfile.OpenDirIn: a linked tmp or tmp/context-budget, in
// or out of the project, or a link planted below it) and not at name
// (atomicfile.OpenFileIn: a link there, even one swapped in during the
// open, is refused and its target never created). What is opened must
// be a regular file. The open does not block.
func open(name string, flag int) (*os.File, error) {
	root, rel := split(filepath.Dir(name))
	d, err := atomicfile.OpenDirIn(root, rel, false)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	f, err := atomicfile.OpenFileIn(d, filepath.Base(name), name, flag, 0o644)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: name, Err: reading.ErrNotRegular}
	}
	return f, nil
}

// Remove removes name, a file of a state folder, through the project
// root without following a link on the way: a linked state folder loses
// nothing where it points. A link at name is removed itself. A missing
// file is not an error.
func Remove(name string) error {
	root, rel := split(filepath.Dir(name))
	d, err := atomicfile.OpenDirIn(root, rel, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Remove(filepath.Base(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Append adds data at the end of name, a file of a state folder, opened
// as open opens it: a line shorter than the pipe buffer written with
// O_APPEND lands whole beside a parallel writer's, without a lock.
func Append(name string, data []byte) error {
	f, err := open(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE|nonBlock)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Close()
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

// Package state is the state folder of a project, <root>/tmp/context-budget
// (design §5): created inside the project with a .gitignore of "*", never
// through a symbolic link, and written only through the project root. It
// holds the files the hook keeps between calls (their names are here,
// and Files lists each kind with its writer), their bounded locks, and
// the ways to write them: replaced atomically (WriteFile) or rewritten in
// place (WriteInPlace).
// PlainName decides which session ids may name a file here.
package state

import (
	"errors"
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
// a symbolic link out of it (see WriteFile): a committed
// tmp/context-budget that links elsewhere is an error, and gets nothing,
// not even the .gitignore. The project root itself is not created.
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
// call). It is written through the project root like WriteFile, so a
// link on the way that leads out of the project is an error; a link at
// name is refused, never written through. The open does not block, and
// what is not a regular file is refused: a FIFO planted at name would
// otherwise hold the call until its deadline.
func WriteInPlace(name string, data []byte) error {
	root, rel := split(filepath.Dir(name))
	rel += "/" + filepath.Base(name)
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	// The open would follow a link inside the root: it is refused first.
	if fi, err := r.Lstat(rel); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return &os.PathError{Op: "open", Path: name, Err: reading.ErrNotRegular}
	}
	f, err := r.OpenFile(rel, os.O_WRONLY|os.O_CREATE|nonBlock, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return &os.PathError{Op: "open", Path: name, Err: reading.ErrNotRegular}
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		return err
	}
	if err := f.Truncate(int64(len(data))); err != nil {
		return err
	}
	return f.Close()
}

// Append adds data at the end of the file name, creating it (mode 0600):
// a line shorter than the pipe buffer written with O_APPEND lands whole
// beside a parallel writer's, without a lock. Like WriteInPlace, the open
// does not block and what is not a regular file is refused.
func Append(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE|nonBlock, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return &os.PathError{Op: "open", Path: name, Err: reading.ErrNotRegular}
	}
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

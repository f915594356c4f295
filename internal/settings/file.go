package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/muthur/context-budget/internal/atomicfile"
	"github.com/muthur/context-budget/internal/reading"
)

// Read reads and parses a settings file. A missing file is an empty
// object and nil data; a file that does not parse is an error and is to
// be left as it is.
func Read(name string) (o *Object, data []byte, err error) {
	data, err = reading.ReadFile(name, reading.MaxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return NewObject(), nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	o, err = Parse(data)
	if err != nil {
		return nil, data, err
	}
	return o, data, nil
}

// BackupName is where Write keeps the previous content of name: one
// backup, replaced by each change.
func BackupName(name string) string { return name + ".bak" }

// Write replaces name with data atomically (temp file in the same
// folder, then rename), keeping the file's permissions and following a
// symlink to the file it names: for the user's own config folder, which
// dotfile managers link. When old is not nil it is first saved to
// BackupName(name). A project's files are written by WriteIn.
func Write(name string, data, old []byte) error {
	// A settings file kept in a dotfiles folder is often a symlink; write
	// through it rather than replace the link with a file.
	if real, err := filepath.EvalSymlinks(name); err == nil {
		name = real
	}
	perm := fs.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		perm = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	o := atomicfile.Options{Perm: perm, Sync: true}
	if old != nil {
		if err := atomicfile.WriteFile(BackupName(name), old, o); err != nil {
			return err
		}
	}
	return atomicfile.WriteFile(name, data, o)
}

// WriteIn is Write for a file of the project at root (its .claude
// settings, its skills): no symbolic link below root is followed, at a
// folder on the way (.claude, skills, a skill's folder), at name or at its
// backup. A repository someone clones may commit any of them as a link,
// in or out of the project, and install must not write where it points:
// such a link is an error (atomicfile.ErrLink) and nothing is written or
// created anywhere. Missing folders are made.
func WriteIn(root, name string, data, old []byte) error {
	d, base, err := dirIn(root, name, true)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := noLinks(d, name); err != nil {
		return err
	}
	perm := fs.FileMode(0o644)
	if fi, err := d.Lstat(base); err == nil {
		perm = fi.Mode().Perm()
	}
	dir := filepath.Dir(name)
	o := atomicfile.Options{Perm: perm, Sync: true}
	if old != nil {
		if err := atomicfile.WriteInRoot(d, dir, BackupName(base), old, o); err != nil {
			return err
		}
	}
	return atomicfile.WriteInRoot(d, dir, base, data, o)
}

// CheckIn reports, without writing, what WriteIn would refuse: a link at
// a folder of name below root that exists, at name or at its backup.
func CheckIn(root, name string) error {
	d, _, err := dirIn(root, name, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer d.Close()
	return noLinks(d, name)
}

// noLinks refuses a link at name or at its backup, in d, name's folder.
func noLinks(d *os.Root, name string) error {
	for _, n := range []string{name, BackupName(name)} {
		if isLink(d, filepath.Base(n)) {
			return &fs.PathError{Op: "write", Path: n, Err: atomicfile.ErrLink}
		}
	}
	return nil
}

func isLink(d *os.Root, name string) bool {
	fi, err := d.Lstat(name)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// RemoveIn removes name, a file of the project at root, and then its
// folder if that is left empty, following no link below root: a linked
// skills folder loses nothing where it points.
func RemoveIn(root, name string) error {
	d, base, err := dirIn(root, name, false)
	if err != nil {
		return err
	}
	if isLink(d, base) {
		d.Close()
		return &fs.PathError{Op: "remove", Path: name, Err: atomicfile.ErrLink}
	}
	err = d.Remove(base)
	d.Close()
	if err != nil {
		return err
	}
	// The folder goes too when nothing else is in it: by its name in its
	// parent, which was opened without links as well.
	folder, _, err := dirIn(root, filepath.Dir(name), false)
	if err == nil {
		folder.Remove(filepath.Base(filepath.Dir(name)))
		folder.Close()
	}
	return nil
}

// dirIn opens the folder of name, a path below root, with no link
// followed below root (atomicfile.OpenDirIn), and returns it with name's
// last component.
func dirIn(root, name string, create bool) (*os.Root, string, error) {
	rel, err := filepath.Rel(root, filepath.Dir(name))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, "", fmt.Errorf("%s is not in the project %s", name, root)
	}
	d, err := atomicfile.OpenDirIn(root, filepath.ToSlash(rel), create)
	return d, filepath.Base(name), err
}

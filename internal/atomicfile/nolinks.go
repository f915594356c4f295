package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ErrLink reports a symbolic link where the program writes only through
// the folders and files it made: a folder of a project's state or ledger,
// a project's .claude. A repository someone clones may commit a link
// there, to a folder outside the project or to a file inside it, and the
// program must not write through it.
var ErrLink = errors.New("a symbolic link the program did not make")

// OpenDirIn opens rel (a slash-separated folder under root, "" or "." for
// root itself) as an *os.Root, resolving each of its components without
// following a symbolic link: a link at any of them, pointing in or out of
// root, is ErrLink, and a component swapped for a link while it is opened
// is caught by comparing what was opened with what was looked at. With
// create, missing components are made (never at a link's target). root
// itself is followed wherever it leads: it is the caller's to name. A
// component that is neither a link nor a folder is ErrNotDir.
func OpenDirIn(root, rel string, create bool) (*os.Root, error) {
	return OpenDirInMode(root, rel, create, 0o755)
}

// OpenDirInMode is OpenDirIn making missing folders with mode perm.
func OpenDirInMode(root, rel string, create bool, perm fs.FileMode) (*os.Root, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	rel = path.Clean(rel)
	if rel == "." {
		return r, nil
	}
	at := root
	for _, name := range strings.Split(rel, "/") {
		at = filepath.Join(at, name)
		next, err := openChild(r, name, at, create, perm)
		r.Close()
		if err != nil {
			return nil, err
		}
		r = next
	}
	return r, nil
}

// openChild opens the folder name of r (at, for errors) without following
// a link.
func openChild(r *os.Root, name, at string, create bool, perm fs.FileMode) (*os.Root, error) {
	fi, err := r.Lstat(name)
	if create && errors.Is(err, fs.ErrNotExist) {
		// A folder is made by name in r: mkdirat does not follow a link
		// there, and fails if one appeared.
		if err := r.Mkdir(name, perm); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		fi, err = r.Lstat(name)
	}
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: at, Err: ErrLink}
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: at, Err: ErrNotDir}
	}
	sub, err := r.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	// os.Root follows a link that stays inside r: if name became one
	// since it was looked at, what was opened is another folder.
	if st, err := sub.Stat("."); err != nil || !os.SameFile(fi, st) {
		sub.Close()
		return nil, &fs.PathError{Op: "open", Path: at, Err: ErrLink}
	}
	return sub, nil
}

// ErrNotDir reports a path that should be a folder and is not: a file,
// a FIFO, a device.
var ErrNotDir = errors.New("not a folder")

// OpenFileIn opens the file name (one component) of the folder r without
// following a link: a link at name is ErrLink, an existing file is opened
// only if it is still the file that was looked at, and a missing one is
// created exclusively (O_CREATE|O_EXCL, which a link makes fail). flag
// gives the access and any other flags (such as a non-blocking open);
// O_CREATE says to make the file when missing. at names the file for
// errors.
func OpenFileIn(r *os.Root, name, at string, flag int, perm fs.FileMode) (*os.File, error) {
	create := flag&os.O_CREATE != 0
	flag &^= os.O_CREATE | os.O_EXCL | os.O_TRUNC
	for tries := 0; tries < 3; tries++ {
		fi, err := r.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) && create {
			f, err := r.OpenFile(name, flag|os.O_CREATE|os.O_EXCL, perm)
			if errors.Is(err, fs.ErrExist) {
				continue // made since it was looked at: look again
			}
			return f, err
		}
		if err != nil {
			return nil, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, &fs.PathError{Op: "open", Path: at, Err: ErrLink}
		}
		f, err := r.OpenFile(name, flag, 0)
		if err != nil {
			return nil, err
		}
		if st, err := f.Stat(); err != nil || !os.SameFile(fi, st) {
			f.Close()
			return nil, &fs.PathError{Op: "open", Path: at, Err: ErrLink}
		}
		return f, nil
	}
	return nil, &fs.PathError{Op: "open", Path: at, Err: fs.ErrExist}
}

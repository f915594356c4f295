package atomicfile

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// WriteIn replaces rel (a slash-separated name under root) atomically, as
// WriteFile does, without ever leaving root or following a link below it:
// its folders are opened by OpenDirIn, so a symbolic link among them,
// pointing in or out of root, is an error (ErrLink) and nothing is
// created or replaced elsewhere. A link at rel itself is replaced, never
// written through. The temporary file is named "."+base+"."+digits+o.Suffix,
// and is locked while it is written so Clean can tell a live writer's
// file from a dead one's.
func WriteIn(root, rel string, data []byte, o Options) error {
	dir, base := path.Split(rel)
	r, err := OpenDirIn(root, dir, false)
	if err != nil {
		return err
	}
	defer r.Close()
	return WriteInRoot(r, filepath.Join(root, filepath.FromSlash(dir)), base, data, o)
}

// WriteInRoot replaces name, a file (one component) of the folder r,
// atomically as WriteIn does; dir is r's path, for BeforeRename.
func WriteInRoot(r *os.Root, dir, name string, data []byte, o Options) error {
	return replace(r, dir, "."+name+".", name, o, writeData(data))
}

// MkdirIn creates rel (slash-separated) and its missing parents under
// root, never leaving it nor following a link below it (OpenDirIn).
func MkdirIn(root, rel string) error {
	r, err := OpenDirIn(root, rel, true)
	if err != nil {
		return err
	}
	return r.Close()
}

// StaleAge is how old a temporary file must be before Clean removes it:
// a write takes milliseconds, a slow disk's fsync seconds.
const StaleAge = time.Minute

// IsTemp reports whether name is one of the temporary files this package
// (or the ledger, with its ".tmp" suffix) writes: "." + base + "." +
// digits [+ suffix].
func IsTemp(name, suffix string) bool {
	if !strings.HasPrefix(name, ".") {
		return false
	}
	rest := strings.TrimSuffix(name, suffix)
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 || i == len(rest)-1 {
		return false
	}
	for _, c := range rest[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Clean removes the temporary files in dir (under root) that a writer
// left behind: older than StaleAge and not locked by a live writer (a
// write killed during its fsync leaves its file, and git would show it
// forever). Errors are ignored: cleaning is a courtesy.
func Clean(root, dir, suffix string) {
	r, err := OpenDirIn(root, dir, false)
	if err != nil {
		return
	}
	defer r.Close()
	d, err := r.Open(".")
	if err != nil {
		return
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return
	}
	now := time.Now()
	for _, e := range entries {
		if !e.Type().IsRegular() || !IsTemp(e.Name(), suffix) {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) < StaleAge {
			continue
		}
		name := e.Name()
		f, err := r.OpenFile(name, os.O_RDONLY, 0)
		if err != nil {
			continue
		}
		if tryLock(f) {
			r.Remove(name)
		}
		f.Close()
	}
}

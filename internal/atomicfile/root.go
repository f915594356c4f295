package atomicfile

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// WriteIn replaces rel (a slash-separated name under root) atomically, as
// WriteFile does, without ever leaving root: every component is resolved
// inside it (os.Root), so a symbolic link in the way that points out of
// root (or is absolute) is an error, and nothing is created or replaced
// elsewhere. A link at rel itself is replaced, never written through. The
// temporary file is named "."+base+"."+digits+o.Suffix, and is locked
// while it is written so Clean can tell a live writer's file from a dead
// one's.
func WriteIn(root, rel string, data []byte, o Options) error {
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	dir, base := path.Split(rel)
	return replace(r, root, dir+"."+base+".", rel, o, writeData(data))
}

// MkdirIn creates rel (slash-separated) and its missing parents under
// root, never leaving it.
func MkdirIn(root, rel string) error {
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	return r.MkdirAll(rel, 0o755)
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
	r, err := os.OpenRoot(root)
	if err != nil {
		return
	}
	defer r.Close()
	d, err := r.Open(dir)
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
		name := filepath.ToSlash(filepath.Join(dir, e.Name()))
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

// Package atomicfile replaces files atomically: the new content is written
// to a temporary file in the same folder, which is then renamed over the
// old one, so a reader sees the old content or the new, never a part, and
// a crash leaves the old file whole.
//
// Every write, by path (Write, WriteFile) or under a root (WriteIn), goes
// through one function, replace, in an os.Root: one naming of the temporary file, one
// lock that tells a live writer's from a dead one's (Clean), one order of
// write, sync, rename.
package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"
)

// Options of a write.
type Options struct {
	Perm fs.FileMode
	// Sync flushes the content to disk before the rename (for files a
	// crash must not lose, like settings, at the cost of a flush).
	Sync bool
	// Suffix ends the temporary file's name.
	Suffix string
	// BeforeRename, when set, runs between writing the temporary file
	// (named by its path; under a root, joined to it) and renaming it:
	// tests stand for a crash there. An error abandons the write.
	BeforeRename func(tmp string) error
	// Swap exchanges the new file with the old (swap) rather than
	// renaming it over the old: on Linux's ext4 a rename over a file
	// makes the kernel flush the new file's data at once, ten times the
	// cost of the write, which a file written on every call cannot pay.
	// Readers see the old content or the new all the same; a crash may
	// leave the new file's data unwritten (the file empty), for files a
	// crash costs little.
	Swap bool
}

// Write replaces name with what write writes. The file gets mode o.Perm.
// On any error the temporary file is removed and name is left as it was.
func Write(name string, o Options, write func(w io.Writer) error) error {
	dir := filepath.Dir(name)
	r, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	base := filepath.Base(name)
	return replace(r, dir, "."+base+".", base, o, write)
}

// WriteFile is Write of data.
func WriteFile(name string, data []byte, o Options) error {
	return Write(name, o, writeData(data))
}

func writeData(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}

var tempSeq atomic.Uint64

// replace writes name in r through a temporary file named prefix +
// digits + o.Suffix (IsTemp's form), locked while it is written. root is
// r's path, for BeforeRename.
func replace(r *os.Root, root, prefix, name string, o Options, write func(io.Writer) error) error {
	var f *os.File
	var tmp string
	var err error
	for tries := 0; tries < 100; tries++ {
		n := uint64(time.Now().UnixNano())*31 + tempSeq.Add(1) + uint64(os.Getpid())<<20
		tmp = prefix + strconv.FormatUint(n%1_000_000_000_000, 10) + o.Suffix
		f, err = r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	holdLock(f)
	err = write(f)
	if err == nil {
		err = f.Chmod(o.Perm)
	}
	if err == nil && o.Sync {
		err = f.Sync()
	}
	if err == nil && o.BeforeRename != nil {
		err = o.BeforeRename(filepath.Join(root, filepath.FromSlash(tmp)))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err == nil && o.Swap:
		err = swap(r, tmp, name)
	case err == nil:
		err = r.Rename(tmp, name)
	}
	if err != nil {
		r.Remove(tmp)
	}
	return err
}

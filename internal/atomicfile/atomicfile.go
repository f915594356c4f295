// Package atomicfile replaces files atomically: the new content is written
// to a temporary file in the same folder, which is then renamed over the
// old one, so a reader sees the old content or the new, never a part, and
// a crash leaves the old file whole.
package atomicfile

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces name with what write writes. The file gets mode perm;
// with sync, its content reaches the disk before the rename (for files a
// crash must not lose, like settings, at the cost of a flush). On any
// error the temporary file is removed and name is left as it was.
func Write(name string, perm fs.FileMode, sync bool, write func(w io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	holdLock(f)
	err = write(f)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// WriteFile is Write of data.
func WriteFile(name string, data []byte, perm fs.FileMode, sync bool) error {
	return Write(name, perm, sync, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

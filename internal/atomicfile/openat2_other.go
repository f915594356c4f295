//go:build !linux

package atomicfile

import (
	"io/fs"
	"os"
)

// OpenIn has no one-call way here: the caller goes through os.Root.
func OpenIn(root, rel string, flags int, perm uint32) (fd int, ok bool) { return -1, false }

// dirFiles is never opened here (openDirIn): writes go through os.Root.
type dirFiles struct{}

func openDirIn(root, dir string) (dirFiles, bool) { return dirFiles{}, false }

func (dirFiles) Close() error { return nil }
func (dirFiles) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return nil, os.ErrInvalid
}
func (dirFiles) Rename(oldname, newname string) error { return os.ErrInvalid }
func (dirFiles) Remove(name string) error             { return os.ErrInvalid }

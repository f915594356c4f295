//go:build unix

package fuse

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"github.com/muthur/context-budget/internal/atomicfile"
)

// nonBlock opens a FIFO without waiting for its other end: it is then
// refused as not a regular file.
const nonBlock = syscall.O_NONBLOCK

// openNoFollow opens path for reading without following a link at it
// (a link there fails) and without waiting on a FIFO.
func openNoFollow(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: atomicfile.ErrLink}
	}
	return f, err
}

// links is how many names a file has.
func links(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

//go:build !unix

package fuse

import (
	"io/fs"
	"os"

	"github.com/muthur/context-budget/internal/atomicfile"
	"github.com/muthur/context-budget/internal/reading"
)

// nonBlock is 0 here: there is no non-blocking open.
const nonBlock = 0

// openNoFollow opens path for reading, refusing a link at it first.
func openNoFollow(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: path, Err: atomicfile.ErrLink}
	}
	f, _, err := reading.Open(path)
	return f, err
}

// links is 1 here: the count of a file's names is not at hand.
func links(os.FileInfo) uint64 { return 1 }

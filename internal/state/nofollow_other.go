//go:build !unix

package state

import (
	"errors"
	"os"
)

// OpenNoFollow opens a file of the state folder for writing in place,
// refusing a link at its name (checked first: there is no O_NOFOLLOW
// here).
func OpenNoFollow(name string) (*os.File, error) {
	if fi, err := os.Lstat(name); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, errors.New(name + ": is a symbolic link")
	}
	return os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
}

// nonBlock opens a FIFO without waiting for a reader (the open then
// fails, or the file is refused as not regular).
const nonBlock = 0

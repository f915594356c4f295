//go:build unix

package state

import (
	"os"
	"syscall"
)

// OpenNoFollow opens a file of the state folder for writing in place
// without following a link at its name: a planted symlink is an error,
// never a way to write outside the project.
func OpenNoFollow(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
}

// nonBlock opens a FIFO without waiting for a reader (the open then
// fails, or the file is refused as not regular).
const nonBlock = syscall.O_NONBLOCK

//go:build unix

package reading

import (
	"os"
	"syscall"
)

// openNoBlock opens path read-only without waiting for a FIFO's writer.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

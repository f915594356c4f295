//go:build linux

package state

import (
	"syscall"

	"github.com/muthur/context-budget/internal/atomicfile"
)

// writeInPlaceFast is WriteInPlace through atomicfile.OpenIn and the descriptor
// alone; handled is false when it did not open the file, and nothing was
// written.
func writeInPlaceFast(root, rel string, data []byte) (handled bool, err error) {
	fd, ok := atomicfile.OpenIn(root, rel, syscall.O_WRONLY|syscall.O_CREAT, 0o644)
	if !ok {
		return false, nil
	}
	n := 0
	for n < len(data) && err == nil {
		var m int
		m, err = syscall.Pwrite(fd, data[n:], int64(n))
		if err == syscall.EINTR {
			err = nil
		}
		n += m
	}
	if err == nil {
		for {
			err = syscall.Ftruncate(fd, int64(len(data)))
			if err != syscall.EINTR {
				break
			}
		}
	}
	if cerr := syscall.Close(fd); err == nil {
		err = cerr
	}
	return true, err
}

//go:build linux

package state

import (
	"syscall"

	"github.com/muthur/context-budget/internal/atomicfile"
	"github.com/muthur/context-budget/internal/reading"
)

// openInPlaceFast opens rel under root for writing, creating it, in one
// openat2 beneath root with no links (atomicfile.OpenIn); ok is false when
// it did not, and the caller goes through os.Root.
func openInPlaceFast(root, rel string) (fd int, ok bool) {
	fd, ok = atomicfile.OpenIn(root, rel, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_NONBLOCK, 0o644)
	if ok && !reading.RegularFd(fd) {
		// Not a regular file: os.Root's path refuses it, with the error.
		closeFd(fd)
		return -1, false
	}
	return fd, ok
}

// writeAtFd makes data the whole content of the file fd.
func writeAtFd(fd int, data []byte) (err error) {
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
	return err
}

func closeFd(fd int) error { return syscall.Close(fd) }

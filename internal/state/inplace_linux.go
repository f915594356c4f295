//go:build linux

package state

import (
	"syscall"

	"github.com/muthur/context-budget/internal/atomicfile"
)

// openInPlaceFast opens rel under root for writing, creating it, in one
// openat2 beneath root with no links (atomicfile.OpenIn); ok is false when
// it did not, and the caller goes through os.Root.
func openInPlaceFast(root, rel string) (fd int, ok bool) {
	return atomicfile.OpenIn(root, rel, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_NONBLOCK, 0o644)
}

// regularFd reports whether fd is a regular file.
func regularFd(fd int) bool {
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(fd, &st)
		if err == syscall.EINTR {
			continue
		}
		return err == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG
	}
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

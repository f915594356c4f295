//go:build unix

package reading

import (
	"io"
	"os"
	"syscall"
)

// regular is a regular file opened for reading by its descriptor alone,
// without an *os.File: the hook reads a handful of small side files and
// one transcript tail on every call, and an os.File costs each open a try
// at the runtime's poller (a failed epoll_ctl, two fcntl for a write) and
// the code pages of that path, page faults a fresh process pays.
type regular struct{ fd int }

// openRegular opens path read-only, without waiting for a FIFO's writer,
// and returns it with its size when it is a regular file.
func openRegular(path string) (regular, int64, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return regular{-1}, 0, &os.PathError{Op: "open", Path: path, Err: err}
	}
	f := regular{fd}
	size, mode, err := f.stat()
	if err != nil {
		f.Close()
		return regular{-1}, 0, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if mode&syscall.S_IFMT != syscall.S_IFREG {
		f.Close()
		return regular{-1}, 0, &os.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return f, size, nil
}

// RegularFd reports whether fd, opened elsewhere, is a regular file.
func RegularFd(fd int) bool {
	_, mode, err := regular{fd}.stat()
	return err == nil && mode&syscall.S_IFMT == syscall.S_IFREG
}

func (f regular) stat() (size int64, mode uint32, err error) {
	var st syscall.Stat_t
	for {
		err = syscall.Fstat(f.fd, &st)
		if err != syscall.EINTR {
			break
		}
	}
	return st.Size, uint32(st.Mode), err
}

// Size is the file's size now.
func (f regular) Size() (int64, error) {
	size, _, err := f.stat()
	return size, err
}

// ReadAt reads len(p) bytes from off, as io.ReaderAt: fewer only at the
// end of the file (io.EOF) or on an error.
func (f regular) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		m, err := syscall.Pread(f.fd, p[n:], off+int64(n))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return n, err
		}
		if m == 0 {
			return n, io.EOF
		}
		n += m
	}
	return n, nil
}

// Read reads once from the file's offset.
func (f regular) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(f.fd, p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		if n == 0 && len(p) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f regular) Close() error { return syscall.Close(f.fd) }

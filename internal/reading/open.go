package reading

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrNotRegular reports a path that is not a regular file: a FIFO, a
// device, a socket or a folder.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge reports a file larger than its kind may be.
var ErrTooLarge = errors.New("file is larger than expected")

// Open opens a file the program does not own (a transcript, a ledger row,
// a side file in the state folder, a settings or price file) for reading:
// regular files only, so that a FIFO, a device or a link to one can
// neither block the call nor feed it without end. The open itself does
// not block on a FIFO. A symbolic link is followed; what it names must be
// a regular file.
func Open(path string) (*os.File, os.FileInfo, error) {
	f, err := openNoBlock(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	return f, fi, nil
}

// File is a regular file opened for reading by OpenRegular.
type File interface {
	io.Reader
	io.ReaderAt
	io.Closer
	// Size is the file's size now.
	Size() (int64, error)
}

// OpenRegular is Open for a caller that reads by offset and needs no
// *os.File: on Unix the file is its descriptor alone (see raw_unix.go).
// It returns the file's size at the open.
func OpenRegular(path string) (File, int64, error) {
	f, size, err := openRegular(path)
	if err != nil {
		return nil, 0, err
	}
	return f, size, nil
}

// ReadFile returns the content of the regular file at path, refusing one
// of more than max bytes (ErrTooLarge) before reading it. A file that
// grows past max while it is read is refused too. The file is read in one
// read of its size (and one more byte, to see it grow).
func ReadFile(path string, max int64) ([]byte, error) {
	f, size, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > max {
		return nil, fmt.Errorf("%s: %w (%d bytes, at most %d)", path, ErrTooLarge, size, max)
	}
	buf := make([]byte, size+1)
	n := 0
	for {
		m, err := f.ReadAt(buf[n:], int64(n))
		n += m
		if err == io.EOF {
			return buf[:n], nil
		}
		if err != nil {
			return nil, err
		}
		// The file grew while it was read.
		if int64(n) > max {
			return nil, fmt.Errorf("%s: %w (more than %d bytes)", path, ErrTooLarge, max)
		}
		buf = append(buf, make([]byte, min(int64(len(buf)), max+1-int64(n)))...)
	}
}

// ReadHead reads the start of the regular file at path into buf, in one
// read, and returns how many bytes came: a cache's header line, a small
// record.
func ReadHead(path string, buf []byte) (int, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n, err := f.ReadAt(buf, 0)
	if err == io.EOF {
		err = nil
	}
	return n, err
}

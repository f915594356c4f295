package reading

import (
	"bytes"
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

// ReadFile returns the content of the regular file at path, refusing one
// of more than max bytes (ErrTooLarge) before reading it. A file that
// grows past max while it is read is refused too.
func ReadFile(path string, max int64) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size := fi.Size(); size > max {
		return nil, fmt.Errorf("%s: %w (%d bytes, at most %d)", path, ErrTooLarge, size, max)
	}
	// A buffer the size of the file, as os.ReadFile makes, grown only
	// for a file that grows meanwhile.
	var buf bytes.Buffer
	buf.Grow(int(fi.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, max+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > max {
		// The file grew while it was read.
		return nil, fmt.Errorf("%s: %w (more than %d bytes)", path, ErrTooLarge, max)
	}
	return buf.Bytes(), nil
}

package reading

import (
	"bytes"
	"errors"
	"io"
)

// Reader reads a transcript forwards, one line at a time. It is the one
// forward line reader of the program: the history's pass, orientation,
// the ledger, replay and doctor all read transcripts through it, so they
// agree on which lines exist.
//
// A line longer than MaxLine is skipped without being held: memory stays
// within MaxLine plus one read. A final line without its newline is held
// back, since Claude Code may still be writing it, unless Final is set
// (a file known to be complete). Offset tells where the next unread line
// starts, so a later pass can resume there.
type Reader struct {
	// MaxLine is the longest line returned, without its newline; longer
	// lines are skipped and counted in Skipped. Zero means the package's
	// MaxLine, the tail scan's bound, so the two directions agree.
	MaxLine int
	// Final makes Next return a last line that lacks its newline at the
	// end of the input, for files that nothing writes any more.
	Final bool
	// Skipped counts the over-long lines skipped so far.
	Skipped int

	r        io.Reader
	buf      []byte
	start    int   // buf[start:end] is read but not yet returned
	end      int   //
	scan     int   // buf[start:scan] holds no newline
	off      int64 // offset of buf[start] in the file
	dropped  int64 // bytes of an over-long line already let go
	skipping bool  // inside an over-long line
	err      error
}

// readSize is the size of one read, and the buffer's size before any
// long line grows it.
const readSize = 64 << 10

// NewReader returns a Reader of r, which starts at offset 0 of its file.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: r}
}

// Reset makes the Reader read from r, which starts at offset of its file,
// keeping its buffer and its settings, and clearing Skipped.
func (r *Reader) Reset(src io.Reader, offset int64) {
	*r = Reader{MaxLine: r.MaxLine, Final: r.Final, r: src, buf: r.buf[:0], off: offset}
}

// Offset returns the file offset just past the last line that Next
// returned or skipped: where a later pass resumes.
func (r *Reader) Offset() int64 { return r.off }

// Next returns the next line, without its newline. The slice is valid
// until the next call. At the end of the input it returns io.EOF, or the
// reader's error.
func (r *Reader) Next() ([]byte, error) {
	max := r.MaxLine
	if max <= 0 {
		max = MaxLine
	}
	for {
		if i := bytes.IndexByte(r.buf[r.scan:r.end], '\n'); i >= 0 {
			nl := r.scan + i
			line := r.buf[r.start:nl]
			r.off += r.dropped + int64(nl+1-r.start)
			r.start, r.scan, r.dropped = nl+1, nl+1, 0
			if r.skipping || len(line) > max {
				r.skipping = false
				r.Skipped++
				continue
			}
			return line, nil
		}
		r.scan = r.end
		if r.end-r.start > max {
			r.skipping = true
		}
		if r.err != nil {
			return r.atEnd()
		}
		r.makeRoom(max)
		r.fill()
	}
}

// atEnd ends the input: the held bytes are a last line without newline.
func (r *Reader) atEnd() ([]byte, error) {
	if r.Final && errors.Is(r.err, io.EOF) && (r.end > r.start || r.skipping) {
		line := r.buf[r.start:r.end]
		r.off += r.dropped + int64(r.end-r.start)
		r.start, r.scan, r.dropped = r.end, r.end, 0
		if !r.skipping {
			return line, nil
		}
		r.skipping = false
		r.Skipped++
	}
	return nil, r.err
}

// makeRoom frees or grows the buffer for one more read. The bytes of an
// over-long line are let go; a line that may still fit moves to the front
// and the buffer doubles when it is full, up to one byte past max.
func (r *Reader) makeRoom(limit int) {
	if r.skipping {
		r.dropped += int64(r.end - r.start)
		r.start, r.end, r.scan = 0, 0, 0
	} else if r.start > 0 {
		n := copy(r.buf, r.buf[r.start:r.end])
		r.start, r.end, r.scan = 0, n, n
	}
	if cap(r.buf)-r.end >= readSize {
		r.buf = r.buf[:cap(r.buf)]
		return
	}
	// r.end <= limit here, so the largest buffer still has a read's room.
	size := min(max(2*cap(r.buf), r.end+readSize), limit+readSize)
	nb := make([]byte, size)
	copy(nb, r.buf[:r.end])
	r.buf = nb
}

// fill reads once into the buffer. A reader that returns nothing many
// times in a row is an error, as in bufio.
func (r *Reader) fill() {
	for range 100 {
		n, err := r.r.Read(r.buf[r.end:])
		r.end += n
		if err != nil {
			r.err = err
			return
		}
		if n > 0 {
			return
		}
	}
	r.err = io.ErrNoProgress
}
